"use client";

import { useId, useSyncExternalStore } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { PanelHead, pageStackClassName, panelClassName, panelNoteClassName } from "@/components/ui/panel";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { DataTable, cellNoteClassName, numericCellClassName } from "@/components/ui/table";
import { REJECTION_REASONS, type CaptureServiceStatus } from "@/lib/capture/otlp/status-schema";
import { formatCount } from "@/lib/format";
import styles from "./capture.module.css";
import { useCaptureStatus } from "./use-capture-status";

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

const noSubscription = () => () => {};

/** This server's OTLP endpoint as an exporter should be configured with it (the page's own origin once hydrated). */
function useTracesEndpoint(): string {
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "http://localhost:3000",
  );
  return `${origin}/v1/traces`;
}

/**
 * The capture-status page (lib/capture/README.md "Capture from production"): per OTLP service, the
 * spans received and what became of them. Exporters never show the export answer's
 * partial_success, so this is where refused spans and their reasons become visible.
 */
export function CaptureStatusView() {
  const status = useCaptureStatus();
  const titleId = useId();
  return (
    <div className={pageStackClassName}>
      <section className={panelClassName} aria-labelledby={titleId} data-testid="capture-status">
        <PanelHead
          title="OpenTelemetry spans, per service"
          titleId={titleId}
          aside={<p className={panelNoteClassName}>Updated every 10 seconds.</p>}
        />
        {status.isPending ? (
          <LoadingState>Reading the capture counters…</LoadingState>
        ) : status.isError ? (
          <ErrorState title="Could not read the capture counters." error={status.error} onRetry={() => void status.refetch()} />
        ) : status.data.services.length === 0 ? (
          <EmptyState title="No spans received yet" data-testid="capture-empty">
            <p>Point an OpenTelemetry OTLP/HTTP exporter at this dashboard; its retriever spans become recalls in History.</p>
          </EmptyState>
        ) : (
          <ServiceTable services={status.data.services} />
        )}
      </section>
      {status.data?.services.some((s) => s.rejected > 0) ? <Rejections services={status.data.services} /> : null}
      <HowToSend />
    </div>
  );
}

function ServiceTable({ services }: { services: readonly CaptureServiceStatus[] }) {
  return (
    <DataTable
      bleed
      alignTop
      caption="Spans of each export, by the resource's service.name. Only OpenInference RETRIEVER spans become recalls; other spans are counted and dropped."
      columns={[
        "Service",
        { label: "Spans received", numeric: true },
        { label: "Retriever spans", numeric: true },
        { label: "Logged", numeric: true },
        { label: "Already logged", numeric: true, title: "Sent again by the exporter (a retry): not logged twice" },
        { label: "Rejected", numeric: true },
        "Last span",
      ]}
    >
      <tbody>
        {services.map((s) => (
          <tr key={s.service} data-service={s.service}>
            <td>
              <span className="mono">{s.service}</span>
              <span className={cellNoteClassName}>since {when(s.first_seen_at)}</span>
            </td>
            <td className={numericCellClassName}>{formatCount(s.received)}</td>
            <td className={numericCellClassName}>{formatCount(s.retrievers)}</td>
            <td className={numericCellClassName} data-testid="logged">
              {formatCount(s.logged)}
            </td>
            <td className={numericCellClassName}>{formatCount(s.duplicates)}</td>
            <td className={numericCellClassName} data-testid="rejected">
              {s.rejected > 0 ? <strong>{formatCount(s.rejected)}</strong> : "0"}
            </td>
            <td>
              {when(s.last_seen_at)}
              {s.last_rejected_at ? <span className={cellNoteClassName}>last rejected {when(s.last_rejected_at)}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function Rejections({ services }: { services: readonly CaptureServiceStatus[] }) {
  const titleId = useId();
  return (
    <section className={panelClassName} aria-labelledby={titleId} data-testid="capture-rejections">
      <PanelHead title="Why spans were rejected" titleId={titleId} />
      <p className={panelNoteClassName}>
        A rejected retriever span is not in History. The exporter was told (the answer&apos;s partial_success) but does not show
        it; the latest message for each reason is below.
      </p>
      <ul className={styles.reasons}>
        {services.flatMap((s) =>
          s.rejections.map((r) => (
            <li key={`${s.service}-${r.reason}`} className={styles.reason}>
              <p>
                <span className="mono">{s.service}</span>: <strong>{REJECTION_REASONS[r.reason] ?? r.reason}</strong> —{" "}
                {formatCount(r.count)} span{r.count === 1 ? "" : "s"}, last {when(r.last_at)}
              </p>
              <p className={styles.message}>{r.last_message}</p>
            </li>
          )),
        )}
      </ul>
    </section>
  );
}

function HowToSend() {
  const titleId = useId();
  const endpoint = useTracesEndpoint();
  const env = [
    `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${endpoint}`,
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf",
    "OTEL_SERVICE_NAME=my-agent",
    "# when sign-in is on: an API key with the ingest scope (Settings)",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS=Authorization=Bearer ri_…",
  ].join("\n");
  return (
    <section className={`${panelClassName} ${styles.howTo}`} aria-labelledby={titleId} data-testid="capture-how-to">
      <PanelHead title="How to send spans" titleId={titleId} />
      <p>
        Any OTLP/HTTP exporter works (protobuf or JSON, gzip or not) with an OpenInference instrumentation that marks retrievers,
        e.g. <span className="mono">@arizeai/openinference-instrumentation-langchain</span> for LangChain. Each RETRIEVER span
        becomes one recall: the query from <span className="mono">input.value</span>, the documents from{" "}
        <span className="mono">retrieval.documents</span> (ids from the document, its metadata or the output).
      </p>
      <pre className={styles.code}>{env}</pre>
      {/* In a div: the panel is a flex column, which would stretch the button across it. */}
      <div>
        <CopyButton value={env} label="exporter settings" />
      </div>
    </section>
  );
}
