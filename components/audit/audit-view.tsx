"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { StoreOptions } from "@/components/filters/store-options";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { PanelHead, pageStackClassName, panelClassName, panelNoteClassName } from "@/components/ui/panel";
import { ApiErrorText, LoadingState } from "@/components/ui/states";
import { DEFAULT_SHADOW_THRESHOLD, type AuditStatus } from "@/lib/audit/types";
import { ApiRequestError, errorMessage } from "@/lib/queries/fetch-json";
import { auditCsvUrl, useAuditStatus, useCancelAudit, useStartAudit } from "@/lib/queries/use-audit";
import { useStores } from "@/lib/queries/use-recall";
import { AuditFindings } from "./audit-findings";
import styles from "./audit.module.css";
import { DuplicateClusters } from "./duplicate-clusters";

/**
 * The Reachability page (lib/audit/README.md "Reachability audit"): pick a store (`?store=`,
 * absent = the default store), run its audit in the background, and read the last result.
 */
export function AuditView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const stores = useStores();
  const fallback = stores.data?.find((s) => s.default)?.name ?? stores.data?.[0]?.name ?? null;
  const store = params.get("store") || fallback;
  const pickerId = useId();

  const choose = (name: string) => {
    const next = new URLSearchParams(params.toString());
    next.set("store", name);
    next.delete("class");
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  return (
    <div className={pageStackClassName}>
      <section className={panelClassName} aria-label="Store to audit">
        <div className={styles.controls}>
          <Field id={pickerId} label="Store">
            <select id={pickerId} className={controlClassName} value={store ?? ""} onChange={(e) => choose(e.target.value)}>
              {stores.data ? <StoreOptions stores={stores.data} /> : <option value="">Loading stores…</option>}
              {store && stores.data && !stores.data.some((s) => s.name === store) ? (
                <option value={store}>{`${store} (no such store)`}</option>
              ) : null}
            </select>
          </Field>
        </div>
      </section>
      {store ? (
        <StoreAudit key={store} store={store} />
      ) : stores.isPending ? (
        <LoadingState>Loading stores…</LoadingState>
      ) : stores.isError ? (
        <Notice tone="error" title="The stores could not be listed">
          {errorMessage(stores.error)} <ApiErrorText error={stores.error} /> Reload the page to try again.
        </Notice>
      ) : null}
    </div>
  );
}

function StoreAudit({ store }: { store: string }) {
  const status = useAuditStatus(store);
  const start = useStartAudit(store);
  const cancel = useCancelAudit(store);
  const [threshold, setThreshold] = useState(String(DEFAULT_SHADOW_THRESHOLD));
  const thresholdId = useId();
  const confirmation = confirmationOf(start.error);

  const run = (confirmCalls?: number) =>
    start.mutate({
      shadow_threshold: Number(threshold),
      ...(confirmCalls !== undefined ? { confirm_calls: confirmCalls } : {}),
    });

  if (status.isPending) return <LoadingState>Loading the audit…</LoadingState>;
  if (status.error) {
    return (
      <section className={panelClassName}>
        <Notice tone="error" title="The audit could not be read">
          {errorMessage(status.error)} <ApiErrorText error={status.error} />
        </Notice>
      </section>
    );
  }
  const data: AuditStatus = status.data;
  const running = data.state === "running";
  return (
    <>
      <section className={panelClassName} aria-labelledby="audit-run-title">
        <PanelHead title="Reachability audit" titleId="audit-run-title" />
        <p className={panelNoteClassName}>
          Every memory is recalled with probes made from itself — its summary, its summary without the store&apos;s most frequent
          words, its tags — at k = 5 and 10 in hybrid, semantic and keyword mode. The probes are not logged.
        </p>
        <div className={styles.controls}>
          <Field id={thresholdId} label="Near-duplicate threshold (cosine ≥)">
            <TextInput
              id={thresholdId}
              inputMode="decimal"
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
              disabled={running}
              size={6}
            />
          </Field>
          {running ? (
            <Button onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel audit
            </Button>
          ) : (
            <Button variant="primary" onClick={() => run()} disabled={start.isPending}>
              {data.result ? "Run the audit again" : "Run audit"}
            </Button>
          )}
          {data.result ? (
            <a href={auditCsvUrl(store)} download>
              Export CSV
            </a>
          ) : null}
        </div>
        {running && data.progress ? (
          <p role="status" data-testid="audit-progress">
            {data.progress.phase === "probing"
              ? `Probing: ${data.progress.done.toLocaleString("en")} of ${data.progress.total.toLocaleString("en")} memories`
              : `${data.progress.phase[0]!.toUpperCase()}${data.progress.phase.slice(1)}…`}
            <progress value={data.progress.done} max={Math.max(1, data.progress.total)} aria-label="Audit progress" />
          </p>
        ) : null}
        {data.state === "cancelled" ? (
          <Notice tone="info">The audit was cancelled; the last finished result stays.</Notice>
        ) : null}
        {data.state === "failed" && data.error ? (
          <Notice tone="error" title="The audit failed">
            {data.error.message}
          </Notice>
        ) : null}
        {confirmation ? (
          <Notice tone="warning" title="Confirm the calls to the memory service">
            {confirmation.message}{" "}
            <Button onClick={() => run(confirmation.calls)} disabled={start.isPending}>
              Make {confirmation.calls.toLocaleString("en")} calls
            </Button>
          </Notice>
        ) : start.error ? (
          <Notice tone="error" title="The audit did not start">
            {errorMessage(start.error)} <ApiErrorText error={start.error} />
          </Notice>
        ) : null}
        {cancel.error ? <Notice tone="error">{errorMessage(cancel.error)}</Notice> : null}
      </section>
      {data.result ? (
        <>
          <section className={panelClassName} aria-labelledby="audit-result-title">
            <PanelHead
              title={
                <>
                  Result of <time dateTime={data.result.finished_at}>{new Date(data.result.finished_at).toLocaleString()}</time>
                </>
              }
              titleId="audit-result-title"
              aside={
                data.stale ? (
                  <span data-testid="audit-stale">The store has changed since: run it again for a current answer.</span>
                ) : null
              }
            />
            <p className={panelNoteClassName}>
              {data.result.memories.toLocaleString("en")} memories, {data.result.probe_recalls.toLocaleString("en")} probe
              recalls, shadowing at cosine ≥ {data.result.settings.shadow_threshold}; the log over the last{" "}
              {data.result.settings.log_days} days ({data.result.log_recalls.toLocaleString("en")} recalls). {data.result.scope}
            </p>
            {data.result.notes.map((note) => (
              <Notice key={note} tone="info">
                {note}
              </Notice>
            ))}
          </section>
          <AuditFindings store={store} result={data.result} />
          <DuplicateClusters store={store} clusters={data.result.clusters} />
        </>
      ) : running ? null : (
        <section className={panelClassName}>
          <p>No audit of {store} yet.</p>
        </section>
      )}
    </>
  );
}

/** A 409 `confirmation_required` (a remote store): the calls to confirm and the server's sentence. */
function confirmationOf(error: unknown): { calls: number; message: string } | null {
  if (!(error instanceof ApiRequestError) || error.code !== "confirmation_required") return null;
  const calls = Number((error.details as { calls?: unknown } | undefined)?.calls);
  return Number.isInteger(calls) ? { calls, message: error.message } : null;
}
