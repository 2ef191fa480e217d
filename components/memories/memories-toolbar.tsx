"use client";

import { useCallback, useId, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field } from "@/components/ui/field";
import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import type { MemoryListFilters } from "@/lib/queries/use-memories";
import styles from "./memories.module.css";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box keeps what the person types and pushes it to the URL after a pause; when the
 * URL changes on its own (back/forward, "Clear filters") the box follows it.
 */
function SearchBox({ value, onCommit }: { value: string; onCommit: (q: string) => void }) {
  const id = useId();
  const { text, setText, commitNow } = useDebouncedCommit(value, onCommit, { delayMs: SEARCH_DEBOUNCE_MS });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commitNow();
  };

  return (
    <form role="search" className={styles.search} onSubmit={onSubmit}>
      <Field id={`${id}-q`} label="Search summaries or ids">
        <input
          id={`${id}-q`}
          className={controlClassName}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="e.g. deploy, on-call, or a pasted memory id"
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
    </form>
  );
}

/** Search, type and the active tag of the Memories list; every change goes to the URL. */
export function MemoriesToolbar({
  filters,
  types,
  typeCounts,
  onChange,
  onClear,
}: {
  filters: MemoryListFilters;
  /** The types the picker offers (the store's, plus the one in the URL). */
  types: readonly string[];
  typeCounts: Record<string, number> | undefined;
  onChange: (next: Partial<MemoryListFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const filtered = Boolean(filters.q || filters.type || filters.tag);
  // Stable while onChange is, so the search box's pending commit is not restarted by other renders.
  const onSearch = useCallback((q: string) => onChange({ q }), [onChange]);
  return (
    <div className={styles.toolbar}>
      <SearchBox value={filters.q} onCommit={onSearch} />
      <Field id={`${id}-type`} label="Type" className={styles.type}>
        <select
          id={`${id}-type`}
          className={controlClassName}
          value={filters.type}
          onChange={(e) => onChange({ type: e.target.value })}
        >
          <option value="">All types</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {type}
              {typeCounts?.[type] !== undefined ? ` (${typeCounts[type].toLocaleString("en-US")})` : ""}
            </option>
          ))}
        </select>
      </Field>
      {filters.tag ? (
        <div>
          <span className={styles.fieldLabel} id={`${id}-tag`}>
            Tag
          </span>
          <span className={styles.activeTag} aria-labelledby={`${id}-tag`}>
            <span>{filters.tag}</span>
            <button
              type="button"
              className={styles.activeTagClear}
              aria-label={`Stop filtering by tag ${filters.tag}`}
              onClick={() => onChange({ tag: "" })}
            >
              ×
            </button>
          </span>
        </div>
      ) : null}
      {filtered ? (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
