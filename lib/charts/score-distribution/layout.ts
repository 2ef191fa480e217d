import { niceDomain } from "./axis";
import { AXIS_LABELS, SUMMARY_MAX, truncate } from "./metrics";
import { HISTOGRAM_COLOR, POINT_RADIUS, POINT_STYLES } from "./palette";
import type {
  DistributionMarker,
  DistributionPoint,
  LaneId,
  LaneInfo,
  PointCategory,
  PointLegendItem,
  PreparedScoreDistribution,
} from "./types";

// ---------------------------------------------------------------------------------------------
// Points: lanes and dodge

export const LANE_Y: Readonly<Record<LaneId, number>> = Object.freeze({ pool: 1, outside: 0, returned: 1 });

/** What a view knows of a point; the rest is drawing: its category's style, on its lane's baseline, not the top. */
export type PointFacts = Omit<DistributionPoint, "y" | "isTop" | "fill" | "stroke" | "symbol" | "radius" | "summary"> & {
  summary: string | null;
};

/** A point as drawn before layout: summary cut for the tooltip, its category's style, radius, no dodge yet. */
export function drawnPoint({ summary, ...facts }: PointFacts): DistributionPoint {
  const style = POINT_STYLES[facts.category];
  return {
    ...facts,
    y: 0,
    summary: truncate(summary, SUMMARY_MAX),
    isTop: false,
    fill: style.fill,
    stroke: style.stroke,
    symbol: style.symbol,
    radius: POINT_RADIUS,
  };
}
const DODGE_STEP = 0.1;
const DODGE_MAX = 4;
/** Two points closer than this fraction of the domain width would overlap (≈ 9 px at 600 px). */
const COLLISION_FRACTION = 0.015;

/**
 * Assigns each point of one lane a vertical offset so that points closer than `gap` on x take
 * different offsets (0, +1, −1, +2, −2, … steps), deterministically by x then rank.
 */
function dodge(points: DistributionPoint[], gap: number): void {
  const ordered = [...points].sort((p, q) => p.x - q.x || p.rank - q.rank);
  const placed: { x: number; slot: number }[] = [];
  const slots = [0];
  for (let k = 1; k <= DODGE_MAX; k++) slots.push(k, -k);
  for (const p of ordered) {
    const near = placed.filter((q) => p.x - q.x < gap);
    const taken = new Set(near.map((q) => q.slot));
    let slot = slots.find((s) => !taken.has(s));
    if (slot === undefined) {
      // Every slot is taken: reuse the least crowded one.
      const use = new Map<number, number>();
      for (const q of near) use.set(q.slot, (use.get(q.slot) ?? 0) + 1);
      slot = slots.reduce((best, s) => ((use.get(s) ?? 0) < (use.get(best) ?? 0) ? s : best), 0);
    }
    placed.push({ x: p.x, slot });
    p.y = LANE_Y[p.lane] + slot * DODGE_STEP;
  }
}

// ---------------------------------------------------------------------------------------------
// Marker labels: rows so they do not overlap

/**
 * The plot width prepare assumes (a laptop's chart) and the character width, to estimate how much
 * of the axis a label covers. The chart re-lays its labels for its measured width
 * (`relayoutMarkerLabels`), so a phone's narrow plot gets more rows or fewer labels, not overlaps.
 */
export const ASSUMED_PLOT_PX = 600;
const LABEL_CHAR_PX = 6.4;
const LABEL_PAD_PX = 10;
export const MAX_LABEL_ROWS = 4;

/**
 * Gives each drawn marker's label a row so that labels in one row do not overlap at `plotPx`.
 * A label with no room in any of the MAX_LABEL_ROWS rows gets row −1 (not drawn on the chart; the
 * legend below names every marker) — except the top's, which always shows, in the row where it
 * overlaps least. Returns the number of rows used.
 */
function layoutLabels(markers: DistributionMarker[], domain: [number, number], plotPx = ASSUMED_PLOT_PX): number {
  const span = domain[1] - domain[0] || 1;
  const visible = markers.filter((m) => m.inDomain).sort((a, b) => a.x - b.x || a.id.localeCompare(b.id));
  for (const m of markers) if (!m.inDomain) m.labelRow = -1;
  const rowEnds: number[] = [];
  for (const m of visible) {
    const centre = (m.x - domain[0]) / span;
    const half = (m.shortLabel.length * LABEL_CHAR_PX + LABEL_PAD_PX) / Math.max(plotPx, 1) / 2;
    const left = centre - half;
    let row = rowEnds.findIndex((end) => end <= left);
    if (row === -1) {
      if (rowEnds.length < MAX_LABEL_ROWS) {
        row = rowEnds.length;
        rowEnds.push(-Infinity);
      } else if (m.kind === "top") {
        row = rowEnds.indexOf(Math.min(...rowEnds));
      } else {
        m.labelRow = -1;
        continue;
      }
    }
    rowEnds[row] = Math.max(rowEnds[row]!, centre + half);
    m.labelRow = row;
  }
  return rowEnds.length;
}

/**
 * The same prepared chart with its marker labels laid out for a plot `plotPx` wide (the chart
 * measures itself). Pure: the input is not changed.
 */
export function relayoutMarkerLabels(prepared: PreparedScoreDistribution, plotPx: number): PreparedScoreDistribution {
  if (prepared.status === "empty" || prepared.markers.length === 0) return prepared;
  const markers = prepared.markers.map((m) => ({ ...m }));
  const labelRows = layoutLabels(markers, prepared.domain, plotPx);
  return { ...prepared, markers, labelRows };
}

// ---------------------------------------------------------------------------------------------
// Layout shared by both paths: domain, ticks, label rows, lanes and dodge, point legend

const LANE_LABELS: Readonly<Record<LaneId, string>> = Object.freeze({
  pool: "In pool",
  outside: "Outside pool",
  returned: "Returned page",
});
const LANE_ORDER: readonly LaneId[] = ["returned", "pool", "outside"];
const POINT_CATEGORY_ORDER: readonly PointCategory[] = ["pool", "returned", "outside", "dropped"];

interface ChartLayout {
  domain: [number, number];
  ticks: number[];
  labelRows: number;
  lanes: LaneInfo[];
  yDomain: [number, number];
}

/**
 * The x domain (the data, widened for markers within reach), marker visibility and label rows, the
 * lanes and the dodge of the points. `anchors` stand in for the data when there are no points
 * (a chart of markers only); at least one of them or one point must exist.
 */
export function layoutChart(
  points: DistributionPoint[],
  markers: DistributionMarker[],
  bounded: boolean,
  anchors: readonly number[] = [],
): ChartLayout {
  const xs = points.length > 0 ? points.map((p) => p.x) : [...anchors];
  if (xs.length === 0) xs.push(...markers.map((m) => m.x));
  const dataLo = Math.min(...xs);
  const dataHi = Math.max(...xs);
  const reachLo = bounded ? -1 : dataLo - Math.max(dataHi - dataLo, Math.abs(dataHi) * 0.25, 1e-6);
  const reachHi = bounded ? 1 : dataHi + Math.max(dataHi - dataLo, Math.abs(dataHi) * 0.25, 1e-6);
  let lo = dataLo;
  let hi = dataHi;
  for (const m of markers) {
    if (m.x >= reachLo && m.x <= reachHi) {
      lo = Math.min(lo, m.x);
      hi = Math.max(hi, m.x);
    } else {
      m.inDomain = false;
    }
  }
  const { domain, ticks } = niceDomain(lo, hi, bounded);
  for (const m of markers) {
    if (m.x < domain[0] || m.x > domain[1]) m.inDomain = false;
    if (!m.inDomain) m.label += bounded ? " (outside the cosine range, not drawn)" : " (off the chart)";
  }
  const labelRows = layoutLabels(markers, domain);

  const span = domain[1] - domain[0] || 1;
  const lanes: LaneInfo[] = [];
  for (const id of LANE_ORDER) {
    const inLane = points.filter((p) => p.lane === id);
    if (inLane.length === 0) continue;
    lanes.push({ id, y: LANE_Y[id], label: LANE_LABELS[id], count: inLane.length });
    dodge(inLane, span * COLLISION_FRACTION);
  }
  const laneYs = lanes.length > 0 ? lanes.map((l) => l.y) : [LANE_Y.pool];
  const yDomain: [number, number] = [Math.min(...laneYs) - 0.6, Math.max(...laneYs) + 0.6];
  return { domain, ticks, labelRows, lanes, yDomain };
}

/** How many candidates the confidence pool holds, and of them how many were dropped or have no value on the axis. */
export interface PoolTally {
  size: number;
  dropped: number;
  missing: number;
}

/**
 * The point legend. With `pool`, the pool's entry counts the whole pool, not only its kept points
 * on this axis: "in the confidence pool (1)" for a pool of 20 whose other members were dropped or
 * have no value here read as a pool of one.
 */
export function pointLegendOf(points: readonly DistributionPoint[], pool?: PoolTally): PointLegendItem[] {
  return POINT_CATEGORY_ORDER.map((category) => {
    const s = POINT_STYLES[category];
    const count = points.filter((p) => p.category === category).length;
    return {
      category,
      label: s.label,
      fill: s.fill,
      stroke: s.stroke,
      symbol: s.symbol,
      count,
      countText: category === "pool" && pool ? poolCountText(count, pool) : String(count),
    };
  }).filter((item) => item.count > 0);
}

function poolCountText(drawn: number, pool: PoolTally): string {
  if (drawn === pool.size) return String(drawn);
  const parts = [`${drawn} shown as ●`];
  if (pool.dropped > 0) parts.push(`${pool.dropped} dropped`);
  if (pool.missing > 0) parts.push(`${pool.missing} without a value here`);
  return `${pool.size} in all: ${parts.join(", ")}`;
}

/** What every prepared chart carries, drawn or empty. */
export type PreparedBase = Pick<PreparedScoreDistribution, "metric" | "availableMetrics" | "metricOptions" | "poolExposed">;

export function emptyResult(base: PreparedBase, reason: string, ariaPrefix: string): PreparedScoreDistribution {
  return {
    ...base,
    status: "empty",
    emptyReason: reason,
    notes: [],
    plottedMetric: base.metric,
    view: base.metric === "raw_cosine" ? "cosine" : "score",
    axisLabel: AXIS_LABELS[base.metric],
    domain: [0, 1],
    ticks: [],
    yDomain: [0, 1],
    lanes: [],
    points: [],
    bins: [],
    showHistogram: false,
    binColor: HISTOGRAM_COLOR,
    markers: [],
    labelRows: 0,
    pointLegend: [],
    callouts: [],
    ariaLabel: `${ariaPrefix}: nothing to draw. ${reason}`,
  };
}
