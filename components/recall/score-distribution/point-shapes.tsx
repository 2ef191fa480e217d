/** The points of the score distribution: symbols, the hover target and the tooltip (render-only). */
import type { ReactElement } from "react";
import {
  NOTICE_STROKE,
  noticeTitle,
  type DistributionPoint,
  type MissingBm25,
  type PointSymbol,
} from "@/lib/charts/score-distribution";
import { formatScore } from "@/lib/format";
import styles from "./score-distribution.module.css";

export interface ShapeProps {
  cx?: number;
  cy?: number;
  payload?: unknown;
}

export function PointShape({ cx, cy, payload }: ShapeProps): ReactElement {
  const p = payload as DistributionPoint | undefined;
  if (cx === undefined || cy === undefined || p === undefined) return <g />;
  const r = p.radius;
  return (
    <g className={styles.point} data-memory-id={p.memoryId} data-notice={p.notice}>
      {/* A transparent disc makes every symbol equally easy to hover. */}
      <circle cx={cx} cy={cy} r={r + 3} fill="transparent" />
      <SymbolShape kind={p.symbol} cx={cx} cy={cy} r={r} fill={p.fill} stroke={p.stroke} />
      {p.isTop ? <circle cx={cx} cy={cy} r={r + 3} fill="none" stroke={p.stroke} strokeWidth={1} /> : null}
      {/* A notice names this memory (e.g. the buried best hit): a dashed amber halo. */}
      {p.notice ? (
        <circle cx={cx} cy={cy} r={r + 5} fill="none" stroke={NOTICE_STROKE} strokeWidth={2} strokeDasharray="3 2" />
      ) : null}
    </g>
  );
}

export function SymbolShape({
  kind,
  cx,
  cy,
  r,
  fill,
  stroke,
}: {
  kind: PointSymbol;
  cx: number;
  cy: number;
  r: number;
  fill: string;
  stroke: string;
}) {
  if (kind === "cross") {
    const d = `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx - r} ${cy + r}L${cx + r} ${cy - r}`;
    return <path d={d} stroke={stroke} strokeWidth={2.5} strokeLinecap="round" fill="none" />;
  }
  if (kind === "ring") return <circle cx={cx} cy={cy} r={r - 0.5} fill={fill} stroke={stroke} strokeWidth={2} />;
  return <circle cx={cx} cy={cy} r={r} fill={fill} stroke={stroke} strokeWidth={1.5} />;
}

function statusText(p: DistributionPoint): string {
  if (p.dropped) return "dropped by the selector";
  // A store without a pool: the returned page is all that is known.
  if (p.lane === "returned") return "returned on the page";
  if (p.returned) return p.inPool ? "in the pool · on the page" : "on the page";
  return p.inPool ? "in the pool · not on the page" : "outside the pool";
}

function scoreText(x: number | null): string {
  return x === null ? "—" : formatScore(x);
}

const MISSING_BM25_WORDS: Readonly<Record<MissingBm25, string>> = Object.freeze({
  not_run: "not run",
  no_match: "no match",
  not_fetched: "not fetched",
});

/** A BM25 as the tooltip says it: the value, a display-only value, or why there is none. */
function bm25Text(p: DistributionPoint, missing: MissingBm25 | undefined): string {
  if (p.scores.bm25 !== null) return formatScore(p.scores.bm25);
  if (p.displayBm25 !== undefined) return `${formatScore(p.displayBm25)} (not fetched; not used by the merge)`;
  return missing ? MISSING_BM25_WORDS[missing] : "—";
}

interface TooltipContentArgs {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
}

export function PointTooltip({
  active,
  payload,
  axisName,
  missingBm25,
}: TooltipContentArgs & { axisName: string; missingBm25?: MissingBm25 }) {
  const p = payload?.[0]?.payload as DistributionPoint | undefined;
  if (!active || p === undefined) return null;
  return (
    <div className={styles.tooltip}>
      <p className={styles.tooltipSummary}>{p.summary}</p>
      <p className={styles.tooltipMeta}>
        <code>{p.memoryId}</code> · {p.lane === "returned" ? "result" : "rank"} {p.rank}
      </p>
      <p className={styles.tooltipScore}>
        {p.lane === "returned" ? "score" : axisName} <strong>{formatScore(p.x)}</strong>
        {p.lane === "returned" ? ` (${axisName})` : p.isTop ? " (top of the pool)" : ""}
      </p>
      {p.lane === "returned" ? null : (
        <p className={styles.tooltipMeta}>
          cosine {scoreText(p.scores.raw_cosine)} · BM25 {bm25Text(p, missingBm25)} · hybrid {scoreText(p.scores.hybrid)}
        </p>
      )}
      <p className={styles.tooltipStatus} style={{ color: p.stroke }}>
        {statusText(p)}
      </p>
      {p.notice ? (
        <p className={styles.tooltipStatus} style={{ color: NOTICE_STROKE }}>
          {noticeTitle(p.notice)}
        </p>
      ) : null}
    </div>
  );
}
