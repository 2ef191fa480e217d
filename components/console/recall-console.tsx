"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { RecallResultView } from "@/components/recall/recall-result-view";
import { ApiRequestError, errorMessage } from "@/lib/queries/fetch-json";
import { useRecall, useRunRecall, useSelectors, useStores, type StoreOption } from "@/lib/queries/use-recall";
import { RecallBodySchema, type RecallBodyInput } from "@/lib/recall-log/schemas";
import type { LoggedRequest } from "@/lib/recall-log/types";
import { EXAMPLE_QUERIES } from "./example-queries";
import styles from "./console.module.css";

type FormState = Required<Pick<RecallBodyInput, "store" | "query" | "k" | "search_mode" | "selector">>;

const FALLBACK_STORE: StoreOption = {
  name: "embedded",
  label: "Embedded",
  kind: "embedded",
  description: "",
  health: { ok: true },
};

const DEFAULT_FORM: FormState = { store: "embedded", query: "", k: 5, search_mode: "hybrid", selector: "off" };

function formFromRequest(request: LoggedRequest): FormState {
  return {
    store: request.store,
    query: request.query,
    k: request.k,
    search_mode: request.search_mode,
    selector: request.selector,
  };
}

/**
 * The console: a query form and the result view of the recall it ran. The URL carries the
 * logged recall's id (`/?recall=<id>`), so a reload or a shared link shows the same recall
 * without running it again.
 */
export function RecallConsole() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const recallId = params.get("recall");
  const shown = useRecall(recallId);
  const run = useRunRecall();
  const stores = useStores();
  const selectors = useSelectors();
  const [form, setForm] = useState<FormState>(DEFAULT_FORM);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const prefilledFor = useRef<string | null>(null);
  const queryRef = useRef<HTMLTextAreaElement>(null);
  const ids = { query: useId(), store: useId(), k: useId(), mode: useId(), selector: useId(), errors: useId() };

  // A shared link opens with the form showing what that recall asked.
  useEffect(() => {
    if (shown.data && prefilledFor.current !== shown.data.id) {
      prefilledFor.current = shown.data.id;
      setForm(formFromRequest(shown.data.request));
    }
  }, [shown.data]);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const parsed = RecallBodySchema.safeParse(form);
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? "form"), issue.message])));
      queryRef.current?.focus();
      return;
    }
    setFieldErrors({});
    run.mutate(parsed.data, {
      onSuccess: (view) => {
        prefilledFor.current = view.id;
        router.replace(`${pathname}?recall=${view.id}`, { scroll: false });
      },
    });
  }

  function onQueryKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter runs the recall; Shift+Enter keeps a line break for long queries.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const runError = run.error;
  const failedRecallId = runError instanceof ApiRequestError ? (runError.details.recall_id as string | undefined) : undefined;
  const view = shown.data;

  return (
    <div className={styles.console}>
      <form className={`panel ${styles.form}`} onSubmit={submit} aria-label="Run a recall" noValidate>
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
          <button type="submit" className={styles.runButton} disabled={run.isPending}>
            {run.isPending ? "Running…" : "Run recall"}
          </button>
        </div>
        <div className={styles.options}>
          <label htmlFor={ids.store}>
            Store
            <select id={ids.store} value={form.store} onChange={(e) => set("store", e.target.value)}>
              {(stores.data ?? [FALLBACK_STORE]).map((s) => (
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
              {(selectors.data ?? [{ id: "off", label: "Off", available: true }]).map((option) => (
                <option
                  key={option.id}
                  value={option.id}
                  disabled={!option.available}
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
        </div>
        <RemoteStoreNotice store={stores.data?.find((s) => s.name === form.store)} />
        {Object.keys(fieldErrors).length > 0 ? (
          <ul id={ids.errors} className={styles.fieldErrors} role="alert">
            {Object.entries(fieldErrors).map(([field, message]) => (
              <li key={field}>
                {field === "query" ? "Query" : field}: {message}
              </li>
            ))}
          </ul>
        ) : null}
      </form>

      {runError ? (
        <div className={styles.errorBox} role="alert" data-testid="recall-error">
          <strong>The recall failed.</strong> {errorMessage(runError)}
          {failedRecallId ? (
            <>
              {" "}
              It was logged as a failed recall: <Link href={`/recalls/${failedRecallId}`}>open the log entry</Link>.
            </>
          ) : null}
        </div>
      ) : null}

      {recallId && shown.isPending ? (
        <p className={styles.status} role="status">
          Loading recall {recallId}…
        </p>
      ) : null}
      {recallId && shown.error ? (
        <div className={styles.errorBox} role="alert">
          Could not show recall {recallId}: {errorMessage(shown.error)} <Link href="/">Start a new recall</Link>.
        </div>
      ) : null}

      {view ? (
        <div className={run.isPending ? styles.stale : undefined} aria-busy={run.isPending}>
          <RecallResultView view={view} />
        </div>
      ) : !recallId ? (
        <section className={`panel ${styles.intro}`} aria-label="Getting started">
          <h2>Try a query</h2>
          <p>
            The embedded store holds the demo corpus: the memories of an assistant working for a platform lead at a freight
            startup. Ask something it knows, and something it does not, and compare the score distributions.
          </p>
          <ul className={styles.examples}>
            {EXAMPLE_QUERIES.map((example) => (
              <li key={example.query}>
                <button
                  type="button"
                  className={styles.example}
                  onClick={() => {
                    set("query", example.query);
                    queryRef.current?.focus();
                  }}
                >
                  {example.query}
                </button>{" "}
                <span className={styles.exampleKind}>{example.kind}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/**
 * A recall through a memory service is not read-only there: it bumps access stats and may promote
 * memories. Said once per store (dismissal remembered in this browser).
 */
function RemoteStoreNotice({ store }: { store: StoreOption | undefined }) {
  const key = store ? `recall-inspector:remote-notice:${store.name}` : null;
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- syncs local state from the URL or a query after render; a rewrite as derived state changes behaviour, left to the page's owner
    if (key) setDismissed(window.localStorage.getItem(key) ? key : null);
  }, [key]);
  if (!store || store.kind !== "remote" || dismissed === key) return null;
  return (
    <div className={styles.notice} role="note" data-testid="remote-notice">
      <p>
        <strong>{store.label} is a live memory service.</strong> Every recall run here bumps the access counts of the memories it
        returns and may promote working memories to persistent, just as an agent&apos;s recall would. Consider a dedicated context
        for inspection.
        {!store.health.ok ? ` It is not reachable right now: ${store.health.message ?? "unknown error"}` : ""}
      </p>
      <button
        type="button"
        onClick={() => {
          window.localStorage.setItem(key!, "1");
          setDismissed(key);
        }}
      >
        Understood
      </button>
    </div>
  );
}
