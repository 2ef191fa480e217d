"use client";

import { useId, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import type { SelectorOption, StoreOption } from "@/lib/queries/use-recall";
import type { FormState } from "@/lib/recall-log/request-form";
import styles from "./console.module.css";

export const FALLBACK_STORE: StoreOption = {
  name: "embedded",
  label: "Embedded",
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
  /** Undefined while loading (the embedded store is offered meanwhile). */
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
  // A logged recall's store that is not configured here is shown as what it is, not as Embedded.
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
        <label htmlFor={ids.query} className={styles.srOnly}>
          Query
        </label>
        <textarea
          id={ids.query}
          ref={queryRef}
          className={styles.query}
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
        <button
          type="submit"
          className={styles.runButton}
          disabled={running || blocked !== null}
          aria-describedby={blocked !== null ? ids.blocked : undefined}
          title={blocked ?? undefined}
        >
          {running ? "Running…" : "Run recall"}
        </button>
      </div>
      {blocked !== null ? (
        <span id={ids.blocked} className={styles.srOnly}>
          {blocked}
        </span>
      ) : null}
      <div className={styles.options}>
        <label htmlFor={ids.store}>
          Store
          <select id={ids.store} value={form.store} onChange={(e) => set("store", e.target.value)}>
            {unknownStore ? (
              <option value={form.store} data-testid="unconfigured-store-option">
                {form.store} (not configured here)
              </option>
            ) : null}
            {storeList.map((s) => (
              <option
                key={s.name}
                value={s.name}
                title={s.health.ok ? s.description : `${s.description} Not reachable: ${s.health.message ?? "unknown error"}`}
              >
                {s.label}
                {s.kind === "remote" ? (s.health.ok ? " (remote)" : " (remote, unreachable)") : ""}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.k}>
          k
          <input
            id={ids.k}
            type="number"
            min={1}
            max={100}
            value={Number.isFinite(form.k) ? form.k : ""}
            onChange={(e) => set("k", e.target.valueAsNumber)}
            aria-invalid={fieldErrors.k ? true : undefined}
            className={styles.kInput}
          />
        </label>
        <label htmlFor={ids.mode}>
          Search mode
          <select
            id={ids.mode}
            value={form.search_mode}
            onChange={(e) => set("search_mode", e.target.value as FormState["search_mode"])}
          >
            <option value="hybrid">Hybrid (semantic + BM25)</option>
            <option value="semantic">Semantic only</option>
            <option value="keyword">Keyword (BM25) only</option>
          </select>
        </label>
        <label htmlFor={ids.selector}>
          Selector
          <select
            id={ids.selector}
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
        </label>
        <label
          htmlFor={ids.rerank}
          className={styles.checkLabel}
          title={
            rerank === undefined
              ? undefined
              : rerank.by === "service"
                ? "The memory service reranks when asked."
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
            use_rerank
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
        <label htmlFor={ids.types}>
          Types
          <input
            id={ids.types}
            type="text"
            list={ids.typeList}
            value={form.types}
            placeholder="all types (comma-separated)"
            onChange={(e) => set("types", e.target.value)}
            aria-invalid={fieldErrors.filters ? true : undefined}
            autoComplete="off"
          />
          <datalist id={ids.typeList}>
            {knownTypes.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </label>
        <label htmlFor={ids.tags}>
          Tags
          <input
            id={ids.tags}
            type="text"
            value={form.tags}
            placeholder="none (comma-separated)"
            onChange={(e) => set("tags", e.target.value)}
            aria-invalid={fieldErrors.filters ? true : undefined}
            autoComplete="off"
          />
        </label>
        <label htmlFor={ids.tagsMatch}>
          Tags match
          <select
            id={ids.tagsMatch}
            value={form.tags_match}
            onChange={(e) => set("tags_match", e.target.value as FormState["tags_match"])}
          >
            <option value="any">any of them</option>
            <option value="all">all of them</option>
          </select>
        </label>
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
