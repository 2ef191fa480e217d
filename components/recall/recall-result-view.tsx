"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { Notice } from "@/components/ui/notice";
import { displayPage } from "@/lib/recall-log/page";
import { filtersText } from "@/lib/recall-log/request-form";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { CompareActions } from "./compare-actions";
import { ConfidencePanel } from "./confidence-panel";
import { LabelsPanel } from "./labels-panel";
import { ProfileLevels, type ChartRules } from "./profile-levels";
import { RawJsonPanel } from "./raw-json";
import styles from "./recall-result-view.module.css";
import { ResultsTable } from "./results-table";
import { REVEAL_TARGET_SELECTOR, REVEAL_VERDICT, revealAndFocus } from "./reveal";
import { ScoreDistribution } from "./score-distribution/score-distribution-chart";
import { SelectorPanel } from "./selector-panel";
import { WhyNotHerePanel, useAskWhy } from "./why-not-here";

const MODE_LABEL = { hybrid: "hybrid", semantic: "semantic only", keyword: "keyword only" } as const;

export interface RecallResultViewProps {
  view: LoggedRecall;
  showPermalink?: boolean;
  /**
   * The recall was just run from this page: focus its heading and bring the verdict into view
   * (on a phone it renders below the fold), then call `onRevealed`. Not for a reload or a shared link.
   */
  reveal?: boolean;
  onRevealed?: () => void;
}

/**
 * Everything about one logged recall: what was asked, the confidence level and why, the score
 * distribution, what the selector did, and the results; then "why isn't X here?", the ways to
 * compare it with another recall, and its raw JSON. Used by the console and the history detail
 * page, so both show the same thing.
 */
export function RecallResultView({ view, showPermalink = true, reveal = false, onRevealed }: RecallResultViewProps) {
  const { request } = view;
  const created = new Date(view.created_at);
  const filters = filtersText(request);
  const [rules, setRules] = useState<ChartRules>("reference");
  const askWhy = useAskWhy();
  const articleRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const verdictId = useId();

  useEffect(() => {
    if (!reveal) return;
    const heading = headingRef.current;
    if (heading) {
      const verdict = articleRef.current?.querySelector(REVEAL_TARGET_SELECTOR) ?? heading;
      revealAndFocus(heading, verdict);
    }
    onRevealed?.();
  }, [reveal, view.id, onRevealed]);

  // The chart draws the selected rules' thresholds; the pool it shows stays the logged one.
  const charted =
    rules === "profile" && view.profile_confidence && view.confidence
      ? { ...view, confidence: { ...view.confidence, threshold_values: view.profile_confidence.thresholds } }
      : view;
  return (
    <article
      ref={articleRef}
      className={styles.view}
      aria-label="Recall result"
      data-testid="recall-result"
      data-recall-id={view.id}
    >
      <header className={`panel ${styles.header}`}>
        {/* The result's heading: focused after Run recall, and it reads out the verdict with it. */}
        <h2 ref={headingRef} tabIndex={-1} className={styles.query} data-testid="result-heading" aria-describedby={verdictId}>
          <span className={styles.eyebrow}>Query</span>
          <q data-testid="recall-query">{request.query}</q>
        </h2>
        <dl className={styles.meta}>
          <div>
            <dt>Store</dt>
            <dd>{view.store}</dd>
          </div>
          <div>
            <dt>Mode</dt>
            <dd>{MODE_LABEL[request.search_mode] ?? request.search_mode}</dd>
          </div>
          <div>
            <dt>k</dt>
            <dd>{request.k}</dd>
          </div>
          {request.use_rerank ? (
            <div>
              <dt>Rerank</dt>
              <dd>asked</dd>
            </div>
          ) : null}
          {filters ? (
            <div>
              <dt>Filters</dt>
              <dd data-testid="recall-filters">{filters}</dd>
            </div>
          ) : null}
          <div>
            <dt>When</dt>
            <dd>
              <time dateTime={view.created_at} title={view.created_at}>
                {created.toLocaleString()}
              </time>
            </dd>
          </div>
          <div>
            <dt>Latency</dt>
            <dd title={timingsTitle(view.timings)}>{view.latency_ms === null ? "—" : `${view.latency_ms.toFixed(1)} ms`}</dd>
          </div>
          {view.source === "ingest" ? (
            <div>
              <dt>Source</dt>
              <dd>ingested</dd>
            </div>
          ) : view.source === "proxy" ? (
            <div>
              <dt>Source</dt>
              <dd>recall proxy</dd>
            </div>
          ) : view.source === "otel" ? (
            <div>
              <dt>Source</dt>
              <dd>OpenTelemetry span</dd>
            </div>
          ) : view.eval_run ? (
            <div>
              <dt>Source</dt>
              <dd>
                <Link href={`/evaluate/runs/${view.eval_run.id}`}>evaluation run</Link>, item {view.eval_run.item + 1}
              </dd>
            </div>
          ) : null}
          {view.trace ? (
            <>
              <div>
                <dt>Trace</dt>
                <dd>
                  <Link
                    href={`/recalls?trace_id=${view.trace.trace_id}`}
                    data-testid="recall-trace-id"
                    title="Every recall of this trace"
                  >
                    <code>{view.trace.trace_id}</code>
                  </Link>
                </dd>
              </div>
              <div>
                <dt>Span</dt>
                <dd data-testid="recall-span-id">
                  <code>{view.trace.span_id}</code>
                </dd>
              </div>
            </>
          ) : null}
        </dl>
        {showPermalink ? (
          <Link className={styles.permalink} href={`/recalls/${view.id}`}>
            Permalink
          </Link>
        ) : null}
      </header>

      {view.degraded ? (
        <Notice tone="warning" role="note">
          The semantic arm failed ({view.degraded.reason.replaceAll("_", " ")}), so this hybrid recall ran on BM25 alone and
          confidence used the keyword z-score fallback.
        </Notice>
      ) : null}

      {view.status === "error" ? (
        <div className={styles.failure} role="alert" data-testid="recall-failure" id={verdictId} {...REVEAL_VERDICT}>
          <strong>The store failed:</strong> {view.error?.message ?? "no details were recorded."}
        </div>
      ) : (
        <>
          {/* The side column comes first: on a phone (one column) the verdict is then right under the
              query, where Run recall brings it into view; wider, the grid puts the chart on the left. */}
          <div className={styles.grid}>
            <div className={styles.side}>
              <ConfidencePanel view={view} verdictId={verdictId} />
              <ProfileLevels view={view} rules={rules} onRules={setRules} />
              <SelectorPanel view={view} />
            </div>
            <div className={styles.chart}>
              <ScoreDistribution view={{ ...charted, results: displayPage(view) }} onAskWhy={askWhy} />
            </div>
          </div>
          <ResultsTable view={view} />
          <WhyNotHerePanel view={view} />
        </>
      )}
      <CompareActions view={view} />
      <RawJsonPanel view={view} />
      {/* Keyed by recall: a new recall starts from its own stored labels. */}
      <LabelsPanel key={view.id} view={view} />
    </article>
  );
}

function timingsTitle(timings: Record<string, number>): string {
  const parts = Object.entries(timings).map(([stage, ms]) => `${stage.replace(/_ms$/, "")} ${ms.toFixed(1)} ms`);
  return parts.length ? `Stages: ${parts.join(", ")}` : "No stage timings recorded";
}
