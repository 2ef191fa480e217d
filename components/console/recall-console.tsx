"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { defaultStoreName } from "@/components/filters/store-label";
import { RecallResultView } from "@/components/recall/recall-result-view";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { LoadingState } from "@/components/ui/states";
import { ApiRequestError, errorMessage } from "@/lib/queries/fetch-json";
import { useMemoryStats } from "@/lib/queries/use-memories";
import { useRecall, useRunRecall, useSelectors, useStores } from "@/lib/queries/use-recall";
import { DEFAULT_FORM, bodyFromForm, formFromRequest, type FormState } from "@/lib/recall-log/request-form";
import { RecallBodySchema, type RecallBodyInput } from "@/lib/recall-log/schemas";
import { parseForm } from "@/lib/validation/form-messages";
import styles from "./console.module.css";
import { exampleChoice } from "./example-run";
import { RemoteStoreNotice, UnavailableSelectorNotice, UnconfiguredStoreNotice, UnsupportedFiltersNotice } from "./form-notices";
import { FIELD_NAMES, RecallForm } from "./recall-form";
import { EmptyStoreNotice, StoreIntro } from "./store-intro";

/** The server could not be reached at all (fetchJson's status 0): worth a Retry as it stands. */
function unreachable(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 0;
}

/**
 * The console: a query form and the result view of the recall it ran. The URL carries the
 * logged recall's id (`/?recall=<id>`), so a reload or a shared link shows the same recall
 * without running it again, with the form showing exactly what it asked ("Open in console"),
 * whatever its source.
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
  // Store "" until chosen: the default store (the `default` entry of GET /api/stores, the API's own default).
  const [form, setForm] = useState<FormState>(DEFAULT_FORM);
  const [unsupportedFilters, setUnsupportedFilters] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const prefilledFor = useRef<string | null>(null);
  // The recall this page just ran: its result takes the focus and comes into view once shown.
  const [revealId, setRevealId] = useState<string | null>(null);
  const revealed = useCallback(() => setRevealId(null), []);
  const queryRef = useRef<HTMLTextAreaElement>(null);
  const storeName = form.store || defaultStoreName(stores.data);
  const storeInfo = stores.data?.find((s) => s.name === storeName);
  const stats = useMemoryStats(storeName, { enabled: storeInfo?.kind === "embedded" });

  // A shared link opens with the form showing what that recall asked.
  useEffect(() => {
    if (shown.data && prefilledFor.current !== shown.data.id) {
      prefilledFor.current = shown.data.id;
      const prefilled = formFromRequest(shown.data.request);
      setForm(prefilled.form);
      setUnsupportedFilters(prefilled.unsupportedFilters);
    }
  }, [shown.data]);

  // No store at all yet ("": the first write creates the default one) is not "not configured".
  const storeConfigured = stores.data === undefined || storeName === "" || storeInfo !== undefined;
  const selector = selectors.data?.find((s) => s.id === form.selector);
  const blocked = !storeConfigured ? `The store “${form.store}” is not configured here.` : null;

  function send(body: RecallBodyInput) {
    run.mutate(body, {
      onSuccess: (view) => {
        prefilledFor.current = view.id;
        setUnsupportedFilters([]);
        setRevealId(view.id);
        router.replace(`${pathname}?recall=${view.id}`, { scroll: false });
      },
    });
  }

  function submit(event?: FormEvent, override?: Partial<FormState>) {
    event?.preventDefault();
    const next = { ...form, store: storeName, ...override };
    if (override) setForm(next);
    if (!override && blocked !== null) return;
    // The API's schema, its problems in words naming the field (lib/validation/form-messages.ts).
    const { store, ...rest } = bodyFromForm(next);
    // No store known yet (the list still loading): none is sent, and the API runs on its default store.
    const parsed = parseForm(RecallBodySchema, store ? { store, ...rest } : rest, FIELD_NAMES);
    if (!parsed.success) {
      const general = parsed.general.length > 0 ? [["form", parsed.general.join(" ")]] : [];
      setFieldErrors(Object.fromEntries([...Object.entries(parsed.fields).map(([f, m]) => [f, m.join(" ")]), ...general]));
      queryRef.current?.focus();
      return;
    }
    setFieldErrors({});
    send(parsed.data);
  }

  /** An example chip: fills the query box and runs it, or only fills it when Run is blocked. */
  function runExample(query: string) {
    // Not disabled while a recall runs: a disabled button would drop the keyboard's focus to the body.
    if (run.isPending) return;
    const choice = exampleChoice(query, blocked);
    if (choice.run) {
      submit(undefined, { query: choice.query });
    } else {
      set("query", choice.query);
      queryRef.current?.focus();
    }
  }

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const runError = run.error;
  const failedRecallId = runError instanceof ApiRequestError ? (runError.details.recall_id as string | undefined) : undefined;
  const view = shown.data;
  const knownTypes = storeInfo?.kind === "embedded" ? Object.keys(stats.data?.by_type ?? {}).sort() : [];

  return (
    <div className={styles.console}>
      <RecallForm
        form={form.store === storeName ? form : { ...form, store: storeName }}
        onChange={set}
        onSubmit={submit}
        stores={stores.data}
        selectors={selectors.data}
        knownTypes={knownTypes}
        running={run.isPending}
        blocked={blocked}
        fieldErrors={fieldErrors}
        queryRef={queryRef}
      >
        {!storeConfigured ? (
          <UnconfiguredStoreNotice
            store={form.store}
            fallback={defaultStoreName(stores.data)}
            onUseEmbedded={() => submit(undefined, { store: defaultStoreName(stores.data) })}
          />
        ) : null}
        {stores.isError ? (
          <Notice tone="warning" role="note" data-testid="stores-error">
            The list of stores could not be loaded ({errorMessage(stores.error)}); a recall goes to the default store. Reload the
            page to choose another.
          </Notice>
        ) : null}
        {selector && !selector.available ? <UnavailableSelectorNotice selector={selector} /> : null}
        <UnsupportedFiltersNotice keys={unsupportedFilters} />
        <RemoteStoreNotice store={storeInfo} />
        {/* Before a recall the intro below says it; with a recall shown, here. */}
        {shown.data ? <EmptyStoreNotice name={storeName} store={storeInfo} /> : null}
      </RecallForm>

      {runError ? (
        <Notice
          tone="error"
          data-testid="recall-error"
          action={
            unreachable(runError) && run.variables ? (
              <Button size="small" onClick={() => run.variables && send(run.variables)} disabled={run.isPending}>
                {run.isPending ? "Retrying…" : "Retry"}
              </Button>
            ) : null
          }
        >
          <p>
            <strong>The recall failed.</strong> {errorMessage(runError)}
            {failedRecallId ? (
              <>
                {" "}
                It was logged as a failed recall: <Link href={`/recalls/${failedRecallId}`}>open the log entry</Link>.
              </>
            ) : null}
          </p>
        </Notice>
      ) : null}

      {recallId && shown.isPending ? <LoadingState>Loading recall {recallId}…</LoadingState> : null}
      {recallId && shown.error ? (
        <Notice
          tone="error"
          action={
            unreachable(shown.error) ? (
              <Button size="small" onClick={() => void shown.refetch()} disabled={shown.isFetching}>
                {shown.isFetching ? "Retrying…" : "Retry"}
              </Button>
            ) : null
          }
        >
          <p>
            Could not show recall {recallId}: {errorMessage(shown.error)} <Link href="/">Start a new recall</Link>.
          </p>
        </Notice>
      ) : null}

      {view ? (
        <div className={run.isPending ? styles.stale : undefined} aria-busy={run.isPending}>
          <RecallResultView view={view} reveal={revealId === view.id} onRevealed={revealed} />
        </div>
      ) : !recallId ? (
        <StoreIntro name={storeName} store={storeInfo} onExample={runExample} />
      ) : null}
    </div>
  );
}
