"use client";

import Link from "next/link";
import { panelNoteClassName } from "@/components/ui/panel";
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { sourcesWords, weakHitWords } from "@/lib/insights/format";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { InsightsResponse, InsightStats, JudgeInsight } from "@/lib/insights/schema";
import type { RecallSource } from "@/lib/recall-log/sources";
import styles from "./insights.module.css";

/** One headline number: opens the recalls behind it in History when there is a link for them. */
function Stat({
  testId,
  label,
  value,
  detail,
  href,
}: {
  testId: string;
  label: string;
  value: string;
  detail: string;
  href?: string;
}) {
  const body = (
    <>
      <span className={styles.statLabel}>{label}</span>
      <span className={styles.statValue} data-testid="stat-value">
        {value}
      </span>
      <span className={styles.statDetail} data-testid="stat-detail">
        {detail}
      </span>
    </>
  );
  return href ? (
    <Link href={href} className={styles.stat} data-testid={testId} title="Open these recalls in History">
      {body}
    </Link>
  ) : (
    <div className={styles.stat} data-testid={testId}>
      {body}
    </div>
  );
}

interface StatSpec {
  testId: string;
  label: string;
  value: string;
  detail: string;
  href?: string;
}

function StatGrid({ stats, testId }: { stats: readonly StatSpec[]; testId: string }) {
  return (
    <div className={styles.stats} data-testid={testId}>
      {stats.map((stat) => (
        <Stat key={stat.testId} {...stat} />
      ))}
    </div>
  );
}

/** "7 of 12 recalls <what>": a count of a total, the total counted in words. */
function ofTotal(count: number, total: number, noun: string, what: string): string {
  return `${formatCount(count)} of ${countOf(total, noun)} ${what}`;
}

export function HeadlineStats({
  totals,
  verdict,
  scope,
  sources,
}: {
  totals: InsightStats;
  /** The store's verdict judge of the answer (`judges`), which the level figures lead with. */
  verdict: JudgeInsight | undefined;
  scope: DrillScope;
  /** The sources counted (the answer's `filters.sources`; null: every one): said under every figure. */
  sources: readonly RecallSource[] | null;
}) {
  const from = sourcesWords(sources);
  const ranOn = "the selector ran on";
  const stats: StatSpec[] = [
    {
      testId: "stat-recalls",
      label: "Recalls",
      value: formatCount(totals.recalls),
      detail: `${totals.failed > 0 ? `${formatCount(totals.failed)} failed (volume only)` : "none failed"}; ${from}`,
      href: drill.all(scope),
    },
    {
      testId: "stat-applied-rate",
      label: "Selector ran",
      value: formatPercent(totals.applied_rate),
      detail: `${ofTotal(totals.applied, totals.ok, "recall", "that did not fail")}; ${from}`,
      href: drill.applied(scope),
    },
    {
      testId: "stat-drop-rate",
      label: "Drop rate",
      value: formatPercent(totals.drop_rate),
      detail: `${ofTotal(totals.dropped, totals.kept + totals.dropped, "result", "dropped")}; ${from}`,
      href: drill.lostAny(scope),
    },
    {
      testId: "stat-failure-rate",
      label: "Selector failures",
      value: formatPercent(totals.failure_rate),
      detail: `${ofTotal(totals.selector_failed, totals.tried, "recall", "it ran or tried on")}; ${from}`,
      href: drill.selectorFailed(scope),
    },
    {
      testId: "stat-lost-any",
      label: "Lost ≥ 1 result",
      value: formatPercent(totals.lost_any_rate),
      detail: `${ofTotal(totals.lost_any, totals.applied, "recall", ranOn)}; ${from}`,
      href: drill.lostAny(scope),
    },
    {
      testId: "stat-top-dropped",
      label: "Level on a dropped memory",
      value: formatPercent(totals.top_dropped_rate),
      detail: `${ofTotal(totals.top_dropped, totals.applied, "recall", ranOn)}; ${from}`,
      href: drill.topDropped(scope),
    },
    {
      testId: "stat-weak-hit",
      ...weakHitWords(totals, verdict, from),
      href: verdict ? drill.weakVerdicts(scope) : drill.weakHits(scope),
    },
  ];
  return <StatGrid stats={stats} testId="insights-totals" />;
}

/** With relevance labels: what the selector did to memories a person judged. */
export function LabelStats({ labels }: { labels: InsightsResponse["labels"] }) {
  if (labels.labeled === 0) {
    return (
      <p className={panelNoteClassName} data-testid="label-stats-empty">
        No labeled recall the selector ran on in this range: label results in a recall&apos;s detail page to see how often it
        dropped a relevant memory.
      </p>
    );
  }
  return (
    <StatGrid
      testId="label-stats"
      stats={[
        {
          testId: "stat-dropped-relevant",
          label: "Dropped a memory labeled relevant",
          value: formatPercent(labels.dropped_relevant_rate),
          detail: ofTotal(labels.dropped_relevant, labels.labeled, "labeled recall", "the selector ran on"),
        },
        {
          testId: "stat-kept-only-irrelevant",
          label: "Kept only irrelevant ones",
          value: formatPercent(labels.kept_only_irrelevant_rate),
          detail: `${formatCount(labels.kept_only_irrelevant)} of ${countOf(labels.labeled, "labeled recall")}: every kept result labeled not relevant`,
        },
      ]}
    />
  );
}
