"use client";

import { useId, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { StoreOptions } from "@/components/filters/store-options";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, TextInput } from "@/components/ui/field";
import { NamedLabel } from "@/components/ui/named-label";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import type { SelectorOption, StoreOption } from "@/lib/queries/use-recall";
import type { FormState } from "@/lib/recall-log/request-form";
import styles from "./console.module.css";

/** Offered while the store list loads: the form's store is "" (the default store) until then. */
export const FALLBACK_STORE: StoreOption = {
  name: "",
  label: "Loading stores…",
  kind: "embedded",
  description: "",
  health: { ok: true },
};

/** How form errors name the fields (lib/validation/form-messages.ts words them with these). */
export const FIELD_NAMES: Record<string, string> = {
  query: "Query",
  k: "k",
  filters: "Filters",
  store: "Store",
  search_mode: "Search mode",
  selector: "Selector",
};

export interface RecallFormProps {
  form: FormState;
  onChange: <K extends keyof FormState>(key: K, value: FormState[K]) => void;
  onSubmit: (event?: FormEvent) => void;
  /** Undefined while loading ("Loading stores…" is offered meanwhile). */
  stores: StoreOption[] | undefined;
  selectors: SelectorOption[] | undefined;
  /** Memory types known to the chosen store, offered as suggestions. */
  knownTypes: readonly string[];
  running: boolean;
  /** Why Run is not possible as the form stands (e.g. a store not configured here); null when it is. */
  blocked: string | null;
  fieldErrors: Record<string, string>;
  queryRef: RefObject<HTMLTextAreaElement | null>;
  /** Notices under the options (store, selector, filters that cannot run here). */
  children?: ReactNode;
}

/** The console's form: query, store, k, mode, selector, rerank, and the type/tag filters. */
export function RecallForm({
  form,
  onChange: set,
  onSubmit,
  stores,
  selectors,
  knownTypes,
  running,
  blocked,
  fieldErrors,
  queryRef,
  children,
}: RecallFormProps) {
  const ids = {
    query: useId(),
    store: useId(),
    k: useId(),
    mode: useId(),
    selector: useId(),
    rerank: useId(),
    types: useId(),
    typeList: useId(),
    tags: useId(),
    tagsMatch: useId(),
    errors: useId(),
    blocked: useId(),
  };
  const storeList = stores ?? [FALLBACK_STORE];
  // A logged recall's store that is not configured here is shown as what it is, not as another store.
  const unknownStore = stores !== undefined && !storeList.some((s) => s.name === form.store);
  const selectorList = selectors ?? [{ id: "off", label: "Off", available: true }];
  // Unknown while the stores load; then false only where nothing would rerank (the API's 422 says the same).
  const rerank = storeList.find((s) => s.name === form.store)?.rerank;
  const rerankUnavailable = rerank !== undefined && !rerank.available;

  function onQueryKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter runs the recall; Shift+Enter keeps a line break for long queries.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSubmit();
    }
  }

  return (
    <form className={`panel ${styles.form}`} onSubmit={onSubmit} aria-label="Run a recall" noValidate>
      <div className={styles.queryRow}>
        <label htmlFor={ids.query} className={visuallyHiddenClassName}>
          Query
        </label>
        <textarea
          id={ids.query}
          ref={queryRef}
          className={`${controlClassName} ${styles.query}`}
          rows={2}
          placeholder="Ask the memory store something… (Enter runs, Shift+Enter for a new line)"
          value={form.query}
          onChange={(e) => set("query", e.target.value)}
          onKeyDown={onQueryKeyDown}
          aria-invalid={fieldErrors.query ? true : undefined}
          aria-describedby={fieldErrors.query ? ids.errors : undefined}
          maxLength={8000}
          autoFocus
        />
        <Button
          type="submit"
          variant="primary"
          className={styles.runButton}
          disabled={running || blocked !== null}
          aria-describedby={blocked !== null ? ids.blocked : undefined}
          title={blocked ?? undefined}
        >
          {running ? "Running…" : "Run recall"}
        </Button>
      </div>
      {blocked !== null ? (
        <span id={ids.blocked} className={visuallyHiddenClassName}>
          {blocked}
        </span>
      ) : null}
      <div className={styles.options}>
        <Field id={ids.store} label="Store">
          <select id={ids.store} className={controlClassName} value={form.store} onChange={(e) => set("store", e.target.value)}>
            {unknownStore ? (
              <option value={form.store} data-testid="unconfigured-store-option">
                {form.store} (not configured here)
              </option>
            ) : null}
            <StoreOptions stores={storeList} />
          </select>
        </Field>
        <Field id={ids.k} label="k">
          <input
            id={ids.k}
            type="number"
            min={1}
            max={100}
            value={Number.isFinite(form.k) ? form.k : ""}
            onChange={(e) => set("k", e.target.valueAsNumber)}
            aria-invalid={fieldErrors.k ? true : undefined}
            className={`${controlClassName} ${styles.kInput}`}
          />
        </Field>
        <ChoiceField
          id={ids.mode}
          label="Search mode"
          value={form.search_mode}
          onChange={(v) => set("search_mode", v)}
          options={searchModes(storeList.find((s) => s.name === form.store)?.kind)}
        />
        <Field id={ids.selector} label="Selector">
          <select
            id={ids.selector}
            className={controlClassName}
            value={form.selector}
            onChange={(e) => set("selector", e.target.value as FormState["selector"])}
          >
            {selectorList.map((option) => (
              <option
                key={option.id}
                value={option.id}
                disabled={!option.available && option.id !== form.selector}
                title={
                  option.available
                    ? option.model
                      ? `Model: ${option.model}`
                      : undefined
                    : `Not configured: ${option.hint ?? ""}`
                }
              >
                {option.label}
                {option.available ? (option.model && option.id === "llm" ? ` (${option.model})` : "") : " (not configured)"}
              </option>
            ))}
          </select>
        </Field>
        <label
          htmlFor={ids.rerank}
          className={styles.checkLabel}
          title={
            rerank === undefined
              ? undefined
              : rerank.by === "service"
                ? "The memory service reranks when asked; unticked, its context's own setting decides."
                : rerank.available
                  ? `Reranker: ${rerank.model ?? ""}`
                  : "No reranker is configured: set RERANK_BASE_URL and RERANK_MODEL (README, Configuration)."
          }
        >
          <span>Rerank</span>
          <span className={styles.checkRow}>
            <input
              id={ids.rerank}
              type="checkbox"
              checked={form.use_rerank}
              // Kept enabled while checked, so a reopened recall that asked for it can be unticked.
              disabled={rerankUnavailable && !form.use_rerank}
              onChange={(e) => set("use_rerank", e.target.checked)}
              data-testid="rerank-box"
            />
            <NamedLabel name="use_rerank">Rerank the candidates</NamedLabel>
            {rerankUnavailable
              ? " (no reranker configured)"
              : rerank?.by === "reranker" && rerank.model
                ? ` (${rerank.model})`
                : ""}
          </span>
        </label>
      </div>
      <fieldset className={styles.filters}>
        <legend>Filters</legend>
        <Field id={ids.types} label="Types">
          <TextInput
            id={ids.types}
            className={styles.textInput}
            list={ids.typeList}
            value={form.types}
            placeholder="all types (comma-separated)"
            onChange={(e) => set("types", e.target.value)}
            aria-invalid={fieldErrors.filters ? true : undefined}
          />
          <datalist id={ids.typeList}>
            {knownTypes.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </Field>
        <Field id={ids.tags} label="Tags">
          <TextInput
            id={ids.tags}
            className={styles.textInput}
            value={form.tags}
            placeholder="none (comma-separated)"
            onChange={(e) => set("tags", e.target.value)}
            aria-invalid={fieldErrors.filters ? true : undefined}
          />
        </Field>
        <ChoiceField
          id={ids.tagsMatch}
          label="Tags match"
          value={form.tags_match}
          onChange={(v) => set("tags_match", v)}
          options={TAGS_MATCH}
        />
      </fieldset>
      {children}
      {Object.keys(fieldErrors).length > 0 ? (
        <ul id={ids.errors} className={styles.fieldErrors} role="alert">
          {Object.entries(fieldErrors).map(([field, message]) => (
            <li key={field}>{message}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

const SEARCH_MODES: readonly (readonly [FormState["search_mode"], string])[] = [
  ["hybrid", "Hybrid (semantic + BM25)"],
  ["semantic", "Semantic only"],
  ["keyword", "Keyword (BM25) only"],
];

/**
 * The modes, "Auto" first (the default): no mode is sent, so a memory service keeps its own
 * query routing; the embedded store runs hybrid.
 */
function searchModes(kind: StoreOption["kind"] | undefined): readonly (readonly [FormState["search_mode"], string])[] {
  return [["auto", kind === "remote" ? "Auto (service default)" : "Auto (hybrid)"], ...SEARCH_MODES];
}
const TAGS_MATCH: readonly (readonly [FormState["tags_match"], string])[] = [
  ["any", "any of them"],
  ["all", "all of them"],
];

/** A labelled select of fixed choices (value, words). */
function ChoiceField<V extends string>({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly (readonly [V, string])[];
}) {
  return (
    <Field id={id} label={label}>
      <select id={id} className={controlClassName} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map(([v, words]) => (
          <option key={v} value={v}>
            {words}
          </option>
        ))}
      </select>
    </Field>
  );
}
