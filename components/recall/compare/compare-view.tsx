"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { panelTitleClassName } from "@/components/ui/panel";
import { DataTable } from "@/components/ui/table";
import { prepareComparison, type CompareSideSummary, type RankChange, type RankPosition } from "@/lib/charts/compare-recalls";
import { SCORE_METRICS, type ScoreMetric } from "@/lib/charts/score-distribution";
import { formatScore } from "@/lib/format";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { LevelBadge } from "../level-badge";
import { CompareChart, SIDE_COLORS } from "./compare-chart";
import styles from "./compare.module.css";
import { MetricToggle } from "../score-distribution/metric-toggle";

const ROWS_SHOWN = 25;

const STATUS_SHORT: Record<RankPosition["status"], string> = {
  page: "page",
  dropped: "dropped",
  pool: "pool",
  outside: "outside pool",
};

function SideCard({ side }: { side: CompareSideSummary }) {
  const name = side.side.toUpperCase();
  return (
    <section
      className={`panel ${styles.side}`}
      style={{ borderTopColor: SIDE_COLORS[side.side] }}
      data-testid={`compare-side-${side.side}`}
      aria-label={`Recall ${name}`}
    >
      <p className={styles.sideName} style={{ color: SIDE_COLORS[side.side] }}>
        {name}{" "}
        <span className={styles.settings}>
          {side.side === "a" ? "baseline" : "change"} · {side.settings}
        </span>
      </p>
      <div className={styles.sideLevel}>
        <LevelBadge level={side.failed ? null : side.level} size="large" />
        {side.profileLevel ? <span className={styles.muted}>profile: {side.profileLevel}</span> : null}
      </div>
      <dl className={styles.figures}>
        <div>
          <dt>Top score</dt>
          <dd>{formatScore(side.topScore)}</dd>
        </div>
        <div>
          <dt>Prominence</dt>
          <dd>{formatScore(side.prominence)}</dd>
        </div>
        <div>
          <dt>Pool</dt>
          <dd>{side.poolSize ?? "—"}</dd>
        </div>
        <div>
          <dt>Page</dt>
          <dd>{side.pageSize}</dd>
        </div>
        <div>
          <dt>Store</dt>
          <dd>{side.store}</dd>
        </div>
      </dl>
      <p className={styles.query}>
        <q>{side.query}</q>
      </p>
      <p className={styles.muted}>
        <Link href={`/recalls/${side.id}`}>Open recall {name}</Link> ·{" "}
        <time dateTime={side.createdAt}>{new Date(side.createdAt).toLocaleString()}</time>
      </p>
    </section>
  );
}

function Position({ p }: { p: RankPosition | null }) {
  if (p === null) return <span className={styles.muted}>absent</span>;
  return (
    <>
      #{p.rank} <span className={styles.muted}>{STATUS_SHORT[p.status]}</span>
    </>
  );
}

function changeText(r: RankChange): string {
  switch (r.change) {
    case "up":
      return `▲ ${r.delta}`;
    case "down":
      return `▼ ${Math.abs(r.delta ?? 0)}`;
    case "same":
      return "=";
    case "only_a":
      return "only in A";
    case "only_b":
      return "only in B";
  }
}

function RankTable({ rows }: { rows: readonly RankChange[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, ROWS_SHOWN);
  return (
    <section className={`panel ${styles.ranks}`} aria-labelledby="compare-ranks">
      <h2 id="compare-ranks" className={panelTitleClassName}>
        Rank changes per memory
      </h2>
      <DataTable
        data-testid="rank-changes"
        alignTop
        columns={["Memory", "A", "B", "Change"]}
        caption="Rank in each recall’s merged candidate list (or its page, when the store does not expose its pool); ▲ means B ranks it higher."
      >
        <tbody>
          {shown.map((r) => (
            <tr
              key={r.memoryId}
              data-testid="rank-change-row"
              data-memory-id={r.memoryId}
              data-change={r.change}
              data-page-changed={r.pageChanged}
            >
              <td className={styles.memoryCell}>
                <code>{r.memoryId}</code>
                <span className={styles.muted}>{r.summary}</span>
              </td>
              <td className={styles.num}>
                <Position p={r.a} />
              </td>
              <td className={styles.num}>
                <Position p={r.b} />
              </td>
              <td className={`${styles.num} ${r.pageChanged ? styles.pageChanged : ""}`}>
                {changeText(r)}
                {r.pageChanged ? <span className={styles.muted}> (page changed)</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      {rows.length > ROWS_SHOWN ? (
        <Button className={styles.more} size="small" onClick={() => setAll((v) => !v)}>
          {all ? `Show the first ${ROWS_SHOWN}` : `Show all ${rows.length} memories`}
        </Button>
      ) : null}
    </section>
  );
}

/** Two logged recalls side by side; the axis metric lives in the URL (`&metric=`). */
export function CompareView({ a, b }: { a: LoggedRecall; b: LoggedRecall }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const asked = params.get("metric");
  const metric = SCORE_METRICS.find((m) => m === asked);
  const data = useMemo(() => prepareComparison(a, b, metric), [a, b, metric]);

  function onMetric(m: ScoreMetric) {
    const next = new URLSearchParams(params.toString());
    next.set("metric", m);
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  }

  return (
    <div className={styles.view} data-testid="compare-view">
      <div className={styles.sides}>
        {data.sides.map((s) => (
          <SideCard key={s.side} side={s} />
        ))}
      </div>
      <section className={`panel ${styles.summary}`} aria-label="What changed">
        <ul data-testid="compare-summary">
          {data.summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
      <section className={`panel ${styles.chartPanel}`} aria-labelledby="compare-pools">
        <div className={styles.chartHead}>
          <h2 id="compare-pools" className={panelTitleClassName}>
            Both pools on one axis
          </h2>
          <MetricToggle options={data.metricOptions} value={data.metric} onChange={onMetric} />
        </div>
        <CompareChart data={data} />
        {data.notes.length > 0 ? <p className={styles.note}>{data.notes.join(" ")}</p> : null}
      </section>
      <RankTable rows={data.rankChanges} />
    </div>
  );
}
