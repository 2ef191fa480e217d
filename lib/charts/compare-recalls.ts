/**
 * The prepare step of the side-by-side comparison of two logged recalls (docs/ARCHITECTURE.md
 * "Charts: prepare, then visualise"): both pools on one shared score axis (one lane each), the
 * level and figures of each side, and how every memory's rank moved from A to B. The page
 * (components/recall/compare/) only renders what this decides.
 *
 * Doctrine kept here: null is a gap (a candidate without a value on the shared axis is not drawn,
 * and the note says how many); a side whose store does not expose its pool still has its page in
 * the rank table, and the note says its pool is not drawn; the axis is the one both sides can be
 * read on (raw cosine when both have cosines).
 *
 * Client-safe: no React, no I/O.
 */
import { plural } from "@/lib/format";
import type { LoggedCandidate, LoggedRecall } from "@/lib/recall-log/types";
import { placeLineLabels, type LineLabelLayout } from "./label-placement";
import { niceDomain } from "./score-distribution/axis";
import { AXIS_LABELS, METRIC_LABELS, truncate, valueOf } from "./score-distribution/metrics";
import { SCORE_METRICS, type ScoreMetric } from "./score-distribution/types";

export type CompareSide = "a" | "b";

/** Where a memory stood in one recall. */
export type RankStatus = "page" | "dropped" | "pool" | "outside";

/** What the comparison reads of a recall. */
export type CompareInput = Pick<
  LoggedRecall,
  "id" | "created_at" | "store" | "status" | "request" | "results" | "dropped_results" | "confidence" | "candidates"
> & { profile_confidence?: LoggedRecall["profile_confidence"] };

export interface CompareSideSummary {
  side: CompareSide;
  id: string;
  createdAt: string;
  query: string;
  store: string;
  mode: string;
  k: number;
  /** "k=5 · hybrid", what tells the two sides apart at a glance. */
  settings: string;
  level: string | null;
  profileLevel: string | null;
  topScore: number | null;
  prominence: number | null;
  poolSize: number | null;
  /** Rows on the page the agent got (kept by the selector). */
  pageSize: number;
  poolExposed: boolean;
  failed: boolean;
}

export interface ComparePoint {
  side: CompareSide;
  memoryId: string;
  summary: string;
  x: number;
  y: number;
  rank: number;
  status: RankStatus;
  /** The side's best score on the axis among its pool. */
  isTop: boolean;
  /** The memory is also a candidate of the other recall. */
  inOther: boolean;
}

export interface CompareMarker {
  id: string;
  side: CompareSide;
  kind: "top" | "background_mean";
  x: number;
  label: string;
}

export interface RankPosition {
  rank: number;
  status: RankStatus;
  score: number | null;
}

export type RankChangeKind = "up" | "down" | "same" | "only_a" | "only_b";

export interface RankChange {
  memoryId: string;
  summary: string;
  a: RankPosition | null;
  b: RankPosition | null;
  /** Positive when B ranks the memory higher (a smaller rank) than A; null when one side lacks it. */
  delta: number | null;
  change: RankChangeKind;
  /** On one page and not on the other. */
  pageChanged: boolean;
}

export interface PreparedComparison {
  sides: [CompareSideSummary, CompareSideSummary];
  sameQuery: boolean;
  /** The metric asked for and the one drawn (they differ when the one asked has no values on a side). */
  metric: ScoreMetric;
  metricOptions: { metric: ScoreMetric; label: string; available: boolean }[];
  axisLabel: string;
  /** "ok" when there is something to draw on the shared axis. */
  chart: "ok" | "empty";
  emptyReason?: string;
  domain: [number, number];
  ticks: number[];
  points: ComparePoint[];
  markers: CompareMarker[];
  /** One row per memory found in either recall, best rank first. */
  rankChanges: RankChange[];
  /** Sentences that say what changed, most telling first. */
  summary: string[];
  /** Caveats of the drawing. */
  notes: string[];
}

export const COMPARE_LANE_Y: Readonly<Record<CompareSide, number>> = Object.freeze({ a: 1, b: 0 });
const DODGE = 0.12;

const MODE_WORD: Record<string, string> = { hybrid: "hybrid", semantic: "semantic", keyword: "keyword" };

function statusOf(c: LoggedCandidate): RankStatus {
  if (c.dropped) return "dropped";
  if (c.returned) return "page";
  return c.in_pool ? "pool" : "outside";
}

/** A recall's positions: its candidates when exposed, else its page (kept and dropped rows). */
function positionsOf(r: CompareInput): Map<string, RankPosition & { summary: string }> {
  const out = new Map<string, RankPosition & { summary: string }>();
  if (r.candidates !== null) {
    for (const c of r.candidates) {
      out.set(c.memory_id, {
        rank: c.rank,
        status: statusOf(c),
        score: c.hybrid_score ?? c.raw_cosine ?? c.keyword_score,
        summary: c.summary ?? "",
      });
    }
    return out;
  }
  const kept = r.results.map((row) => ({ row, dropped: false }));
  const dropped = r.dropped_results.map((row) => ({ row, dropped: true }));
  [...kept, ...dropped]
    .sort((x, y) => (x.row.rank ?? 0) - (y.row.rank ?? 0))
    .forEach(({ row, dropped: isDropped }, i) => {
      if (out.has(row.memory_id)) return;
      out.set(row.memory_id, {
        rank: row.rank ?? i + 1,
        status: isDropped ? "dropped" : "page",
        score: row.score,
        summary: row.summary,
      });
    });
  return out;
}

function summaryOf(side: CompareSide, r: CompareInput): CompareSideSummary {
  const mode = r.request.search_mode;
  return {
    side,
    id: r.id,
    createdAt: r.created_at,
    query: r.request.query,
    store: r.store,
    mode,
    k: r.request.k,
    settings: `k=${r.request.k} · ${MODE_WORD[mode] ?? mode}${r.request.use_rerank ? " · rerank" : ""}${
      r.request.selector !== "off" ? ` · selector ${r.request.selector}` : ""
    }`,
    level: r.confidence?.level ?? null,
    profileLevel: r.profile_confidence?.level ?? null,
    topScore: r.confidence?.top_score ?? null,
    prominence: r.confidence?.prominence ?? null,
    poolSize: r.confidence?.result_count ?? null,
    pageSize: r.results.length,
    poolExposed: r.candidates !== null,
    failed: r.status === "error",
  };
}

function hasValues(r: CompareInput, metric: ScoreMetric): boolean {
  return (r.candidates ?? []).some((c) => valueOf(c, metric) !== null);
}

/** The axis both sides can be read on: raw cosine when both have cosines, else the first both have. */
export function defaultCompareMetric(a: CompareInput, b: CompareInput): ScoreMetric {
  for (const m of SCORE_METRICS) if (hasValues(a, m) && hasValues(b, m)) return m;
  for (const m of SCORE_METRICS) if (hasValues(a, m) || hasValues(b, m)) return m;
  return "raw_cosine";
}

function changeOf(a: RankPosition | null, b: RankPosition | null): { change: RankChangeKind; delta: number | null } {
  if (a && b) {
    const delta = a.rank - b.rank;
    return { change: delta > 0 ? "up" : delta < 0 ? "down" : "same", delta };
  }
  return { change: a ? "only_a" : "only_b", delta: null };
}

const onPage = (p: RankPosition | null) => p?.status === "page";

/** Every memory of either recall with its rank on each side, best rank (on either side) first. */
export function rankChanges(a: CompareInput, b: CompareInput): RankChange[] {
  const pa = positionsOf(a);
  const pb = positionsOf(b);
  const ids = new Set([...pa.keys(), ...pb.keys()]);
  const rows: RankChange[] = [];
  for (const memoryId of ids) {
    const x = pa.get(memoryId) ?? null;
    const y = pb.get(memoryId) ?? null;
    const { change, delta } = changeOf(x, y);
    rows.push({
      memoryId,
      summary: truncate(x?.summary || y?.summary || null, 120),
      a: x ? { rank: x.rank, status: x.status, score: x.score } : null,
      b: y ? { rank: y.rank, status: y.status, score: y.score } : null,
      delta,
      change,
      pageChanged: onPage(x) !== onPage(y),
    });
  }
  const best = (r: RankChange) => Math.min(r.a?.rank ?? Infinity, r.b?.rank ?? Infinity);
  return rows.sort(
    (p, q) => best(p) - best(q) || (p.a?.rank ?? Infinity) - (q.a?.rank ?? Infinity) || p.memoryId.localeCompare(q.memoryId),
  );
}

function dodge(points: ComparePoint[], gap: number): void {
  const slots = [0, 1, -1, 2, -2, 3, -3];
  const placed: { x: number; slot: number }[] = [];
  for (const p of [...points].sort((m, n) => m.x - n.x || m.rank - n.rank)) {
    const taken = new Set(placed.filter((q) => p.x - q.x < gap).map((q) => q.slot));
    const slot = slots.find((s) => !taken.has(s)) ?? 0;
    placed.push({ x: p.x, slot });
    p.y = COMPARE_LANE_Y[p.side] + slot * DODGE;
  }
}

function pointsOf(
  side: CompareSide,
  r: CompareInput,
  other: Set<string>,
  metric: ScoreMetric,
): { points: ComparePoint[]; missing: number } {
  const points: ComparePoint[] = [];
  let missing = 0;
  for (const c of r.candidates ?? []) {
    const x = valueOf(c, metric);
    if (x === null) {
      missing++;
      continue;
    }
    points.push({
      side,
      memoryId: c.memory_id,
      summary: truncate(c.summary, 90),
      x,
      y: COMPARE_LANE_Y[side],
      rank: c.rank,
      status: statusOf(c),
      isTop: false,
      inOther: other.has(c.memory_id),
    });
  }
  let top: ComparePoint | null = null;
  for (const p of points) if (p.status !== "outside" && (top === null || p.x > top.x)) top = p;
  if (top) top.isTop = true;
  return { points, missing };
}

function levelWordOf(s: CompareSideSummary): string {
  return s.failed ? "failed" : (s.level ?? "no level");
}

/** What changed, in sentences. */
function summarize(sa: CompareSideSummary, sb: CompareSideSummary, rows: readonly RankChange[], sameQuery: boolean): string[] {
  const out: string[] = [];
  if (!sameQuery) out.push("The two recalls asked different queries; rank changes compare different questions.");
  out.push(
    sa.level === sb.level && !sa.failed && !sb.failed
      ? `Both read ${levelWordOf(sa)}.`
      : `The level changes from ${levelWordOf(sa)} (A) to ${levelWordOf(sb)} (B).`,
  );
  const newOnB = rows.filter((r) => onPage(r.b) && !onPage(r.a));
  const goneFromB = rows.filter((r) => onPage(r.a) && !onPage(r.b));
  if (newOnB.length === 0 && goneFromB.length === 0) {
    out.push("Both pages hold the same memories.");
  } else {
    if (newOnB.length > 0) out.push(`${plural(newOnB.length, "memory is", "memories are")} on B's page and not on A's.`);
    if (goneFromB.length > 0)
      out.push(
        `${plural(goneFromB.length, "memory", "memories")} of A's page ${goneFromB.length === 1 ? "is" : "are"} not on B's.`,
      );
  }
  const moved = rows.filter((r) => r.delta !== null && r.delta !== 0 && (onPage(r.a) || onPage(r.b)));
  if (moved.length > 0) out.push(`${plural(moved.length, "memory", "memories")} on a page moved rank.`);
  return out;
}

/**
 * Prepares the comparison of recall A with recall B on `metric` (default: `defaultCompareMetric`).
 */
export function prepareComparison(a: CompareInput, b: CompareInput, metric?: ScoreMetric): PreparedComparison {
  const sa = summaryOf("a", a);
  const sb = summaryOf("b", b);
  const sameQuery = a.request.query.trim() === b.request.query.trim();
  const metricOptions = SCORE_METRICS.map((m) => ({
    metric: m,
    label: METRIC_LABELS[m],
    available: hasValues(a, m) || hasValues(b, m),
  }));
  const chosen = metric && metricOptions.some((o) => o.metric === metric && o.available) ? metric : defaultCompareMetric(a, b);
  const rows = rankChanges(a, b);
  const notes: string[] = [];

  const idsA = new Set((a.candidates ?? []).map((c) => c.memory_id));
  const idsB = new Set((b.candidates ?? []).map((c) => c.memory_id));
  const drawnA = pointsOf("a", a, idsB, chosen);
  const drawnB = pointsOf("b", b, idsA, chosen);
  for (const [s, drawn] of [
    [sa, drawnA],
    [sb, drawnB],
  ] as const) {
    const name = s.side.toUpperCase();
    if (!s.poolExposed)
      notes.push(`${name}'s store does not expose its pool: only its page is in the rank table, and nothing of it is drawn.`);
    else if (drawn.missing > 0)
      notes.push(
        `${plural(drawn.missing, "candidate")} of ${name} ${drawn.missing === 1 ? "has" : "have"} no ${METRIC_LABELS[chosen]} value; left out, not drawn at 0.`,
      );
  }
  const points = [...drawnA.points, ...drawnB.points];

  const markers: CompareMarker[] = [];
  for (const [s, r] of [
    [sa, a],
    [sb, b],
  ] as const) {
    const top = (s.side === "a" ? drawnA : drawnB).points.find((p) => p.isTop);
    if (top)
      markers.push({
        id: `top-${s.side}`,
        side: s.side,
        kind: "top",
        x: top.x,
        label: `${s.side.toUpperCase()} top ${top.x.toFixed(3)}`,
      });
    const mean = r.confidence?.background_mean;
    if (chosen === "raw_cosine" && r.confidence?.basis !== "zscore" && typeof mean === "number" && Number.isFinite(mean)) {
      markers.push({
        id: `mean-${s.side}`,
        side: s.side,
        kind: "background_mean",
        x: mean,
        label: `${s.side.toUpperCase()} background mean ${mean.toFixed(3)}`,
      });
    }
  }

  const base = {
    sides: [sa, sb] as [CompareSideSummary, CompareSideSummary],
    sameQuery,
    metric: chosen,
    metricOptions,
    axisLabel: AXIS_LABELS[chosen],
    rankChanges: rows,
    summary: summarize(sa, sb, rows, sameQuery),
    notes,
  };
  if (points.length === 0) {
    const reason =
      !sa.poolExposed && !sb.poolExposed
        ? "Neither store exposes its candidate pool, so there is no pool to draw; the rank table compares the pages."
        : `No candidate of either recall has a ${METRIC_LABELS[chosen]} value.`;
    return { ...base, chart: "empty", emptyReason: reason, domain: [0, 1], ticks: [], points: [], markers: [] };
  }
  const xs = [...points.map((p) => p.x), ...markers.map((m) => m.x)];
  const { domain, ticks } = niceDomain(Math.min(...xs), Math.max(...xs), chosen === "raw_cosine");
  const gap = (domain[1] - domain[0]) * 0.015;
  dodge(drawnA.points, gap);
  dodge(drawnB.points, gap);
  return { ...base, chart: "ok", domain, ticks, points, markers };
}

/**
 * The markers' labels for a plot `plotPx` wide (the chart measures itself): "A top", "B mean" with
 * the value, one label for markers at one value ("A top / B top 0.612" when both recalls share
 * their best hit), close ones in rows, none past the plot's edge (lib/charts/label-placement.ts).
 */
export function layoutCompareLabels(data: Pick<PreparedComparison, "markers" | "domain">, plotPx: number): LineLabelLayout {
  const name = (m: CompareMarker) => `${m.side.toUpperCase()} ${m.kind === "top" ? "top" : "mean"}`;
  return placeLineLabels(
    data.markers.map((m) => ({ value: m.x, name: name(m), valueText: m.x.toFixed(3) })),
    data.domain,
    plotPx,
  );
}
