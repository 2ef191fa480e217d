"use client";

/**
 * The score distribution of one recall (docs/ARCHITECTURE.md "The product in one paragraph"): a strip plot of the candidates' scores with the
 * background mean, the top and the confidence thresholds drawn in the same space. For a store that
 * does not expose its pool (docs/ARCHITECTURE.md "Wire translation"), the markers its confidence block allows and the returned
 * results where they share the axis, with a note that says what is missing.
 *
 * Render-only: every position, colour, label and sentence comes from `prepareScoreDistribution`
 * (lib/charts/score-distribution.ts). `ScoreDistribution` holds the metric toggle and calls
 * prepare; `ScoreDistributionChart` draws a prepared result.
 */
import { useId, useMemo, useState, type KeyboardEvent, type ReactElement } from "react";
import {
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  CartesianGrid,
} from "recharts";
import { formatScore } from "@/lib/format";
import {
  defaultScoreMetric,
  prepareScoreDistribution,
  type DistributionMarker,
  type DistributionPoint,
  type MetricOption,
  type PointSymbol,
  type PreparedScoreDistribution,
  type ScoreMetric,
} from "@/lib/charts/score-distribution";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./score-distribution.module.css";

export const SCORE_DISTRIBUTION_HEIGHT = 260;

const LABEL_ROW_PX = 14;
const AXIS_TEXT = "#5b6573";
const GRID = "#e6e9ee";

// ---------------------------------------------------------------------------------------------
// Metric toggle

export interface MetricToggleProps {
  options: readonly MetricOption[];
  value: ScoreMetric;
  onChange: (metric: ScoreMetric) => void;
}

/** A segmented control: Raw cosine / BM25 / Hybrid; metrics without values are disabled. */
export function MetricToggle({ options, value, onChange }: MetricToggleProps) {
  const hintId = useId();
  const unavailable = options.filter((o) => !o.available && o.reason);

  // Arrow keys move between the enabled options (Tab and Enter/Space work as for any button).
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const enabled = options.filter((o) => o.available);
    const at = enabled.findIndex((o) => o.metric === value);
    if (enabled.length === 0) return;
    const next = enabled[(at + (event.key === "ArrowRight" ? 1 : enabled.length - 1)) % enabled.length];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next.metric);
    const button = event.currentTarget.querySelector<HTMLButtonElement>(`button[data-metric="${next.metric}"]`);
    button?.focus();
  }

  return (
    <div className={styles.toggleWrap}>
      <div
        className={styles.toggle}
        role="group"
        aria-label="Score on the x axis"
        aria-describedby={unavailable.length > 0 ? hintId : undefined}
        onKeyDown={onKeyDown}
      >
        {options.map((o) => (
          <button
            key={o.metric}
            type="button"
            className={styles.toggleButton}
            data-metric={o.metric}
            aria-pressed={o.metric === value}
            disabled={!o.available}
            title={o.available ? undefined : o.reason}
            onClick={() => onChange(o.metric)}
          >
            {o.label}
          </button>
        ))}
      </div>
      {unavailable.length > 0 ? (
        <span id={hintId} className={styles.visuallyHidden}>
          {unavailable.map((o) => `${o.label} unavailable: ${o.reason ?? ""}`).join(" ")}
        </span>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Points and tooltip

interface ShapeProps {
  cx?: number;
  cy?: number;
  payload?: unknown;
}

function PointShape({ cx, cy, payload }: ShapeProps): ReactElement {
  const p = payload as DistributionPoint | undefined;
  if (cx === undefined || cy === undefined || p === undefined) return <g />;
  const r = p.radius;
  return (
    <g className={styles.point} data-memory-id={p.memoryId}>
      {/* A transparent disc makes every symbol equally easy to hover. */}
      <circle cx={cx} cy={cy} r={r + 3} fill="transparent" />
      <SymbolShape kind={p.symbol} cx={cx} cy={cy} r={r} fill={p.fill} stroke={p.stroke} />
      {p.isTop ? <circle cx={cx} cy={cy} r={r + 3} fill="none" stroke={p.stroke} strokeWidth={1} /> : null}
    </g>
  );
}

function SymbolShape({
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

interface TooltipContentArgs {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
}

function PointTooltip({ active, payload, axisName }: TooltipContentArgs & { axisName: string }) {
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
          cosine {scoreText(p.scores.raw_cosine)} · BM25 {scoreText(p.scores.bm25)} · hybrid {scoreText(p.scores.hybrid)}
        </p>
      )}
      <p className={styles.tooltipStatus} style={{ color: p.stroke }}>
        {statusText(p)}
      </p>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Legends (also the text alternative of the figure)

function LineSwatch({ marker }: { marker: DistributionMarker }) {
  return (
    <svg className={styles.swatch} width="22" height="12" viewBox="0 0 22 12" aria-hidden="true" focusable="false">
      <line
        x1="1"
        y1="6"
        x2="21"
        y2="6"
        stroke={marker.color}
        strokeWidth={marker.strokeWidth + 0.5}
        strokeDasharray={marker.dash || undefined}
      />
    </svg>
  );
}

function PointSwatch({ symbol, fill, stroke }: { symbol: PointSymbol; fill: string; stroke: string }) {
  return (
    <svg className={styles.swatch} width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <SymbolShape kind={symbol} cx={7} cy={7} r={4.5} fill={fill} stroke={stroke} />
    </svg>
  );
}

function MarkerLegend({ markers }: { markers: readonly DistributionMarker[] }) {
  if (markers.length === 0) return null;
  return (
    <ul className={styles.markerLegend} aria-label="Markers">
      {markers.map((m) => (
        <li
          key={m.id}
          className={styles.markerItem}
          data-testid={`marker-${m.kind}`}
          data-marker-id={m.id}
          data-band={m.band}
          data-value={m.x}
          data-in-domain={m.inDomain}
        >
          <LineSwatch marker={m} />
          <span className={m.inDomain ? undefined : styles.offChart}>{m.label}</span>
        </li>
      ))}
    </ul>
  );
}

// ---------------------------------------------------------------------------------------------
// The chart

export interface ScoreDistributionChartProps {
  /** The output of `prepareScoreDistribution`. */
  data: PreparedScoreDistribution;
  /** Called when the user picks another metric; without it no toggle is shown. */
  onMetricChange?: (metric: ScoreMetric) => void;
  /** Chart height in px (default 260). */
  height?: number;
  /** Heading level of the "Score distribution" title; `null` renders no heading. */
  headingLevel?: 2 | 3 | 4 | null;
}

/** Draws a prepared score distribution, or explains why there is nothing to draw. */
export function ScoreDistributionChart({
  data,
  onMetricChange,
  height = SCORE_DISTRIBUTION_HEIGHT,
  headingLevel = 3,
}: ScoreDistributionChartProps) {
  const Heading = headingLevel === null ? null : (`h${headingLevel}` as const);
  const axisName = labelOf(data, data.plottedMetric);

  return (
    <section className={styles.root}>
      <div className={styles.header}>
        {Heading ? <Heading className={styles.title}>Score distribution</Heading> : null}
        {onMetricChange ? <MetricToggle options={data.metricOptions} value={data.metric} onChange={onMetricChange} /> : null}
      </div>

      {data.status === "empty" ? (
        <div
          role="figure"
          aria-label={data.ariaLabel}
          data-testid="score-distribution"
          data-pool-exposed={data.poolExposed}
          className={styles.figure}
        >
          <div className={styles.empty} data-testid="chart-empty">
            <p className={styles.emptyTitle}>Nothing to plot</p>
            <p className={styles.emptyReason}>{data.emptyReason}</p>
          </div>
        </div>
      ) : (
        <div
          role="figure"
          aria-label={data.ariaLabel}
          data-testid="score-distribution"
          data-view={data.view}
          data-metric={data.plottedMetric}
          data-pool-exposed={data.poolExposed}
          className={styles.figure}
        >
          <div className={styles.chart} style={{ height }}>
            <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
              <ScatterChart margin={{ top: 10 + data.labelRows * LABEL_ROW_PX, right: 28, bottom: 4, left: 4 }}>
                <CartesianGrid horizontal={false} stroke={GRID} />
                <XAxis
                  type="number"
                  dataKey="x"
                  name={axisName}
                  domain={data.domain}
                  ticks={data.ticks}
                  allowDataOverflow
                  tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                  stroke={GRID}
                />
                <YAxis
                  type="number"
                  dataKey="y"
                  domain={data.yDomain}
                  ticks={data.lanes.map((l) => l.y)}
                  tickFormatter={(y: number) => data.lanes.find((l) => l.y === y)?.label ?? ""}
                  allowDataOverflow
                  width={100}
                  axisLine={false}
                  tickLine={false}
                  tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                />
                {data.showHistogram
                  ? data.bins
                      .filter((b) => b.count > 0)
                      .map((b) => (
                        <ReferenceArea
                          key={`bin-${b.x0}`}
                          x1={b.x0}
                          x2={b.x1}
                          y1={b.y0}
                          y2={b.y1}
                          fill={data.binColor}
                          fillOpacity={1}
                          stroke="none"
                          ifOverflow="hidden"
                        />
                      ))
                  : null}
                {data.markers
                  .filter((m) => m.inDomain)
                  .map((m) => (
                    <ReferenceLine
                      key={m.id}
                      x={m.x}
                      stroke={m.color}
                      strokeWidth={m.strokeWidth}
                      strokeDasharray={m.dash || undefined}
                      ifOverflow="hidden"
                      label={{
                        value: m.shortLabel,
                        position: "top",
                        offset: 4 + m.labelRow * LABEL_ROW_PX,
                        fill: m.color,
                        fontSize: 11,
                        fontWeight: m.kind === "top" ? 700 : 500,
                      }}
                    />
                  ))}
                <Tooltip
                  cursor={false}
                  isAnimationActive={false}
                  content={(props) => <PointTooltip active={props.active} payload={props.payload} axisName={axisName} />}
                />
                <Scatter
                  name={axisName}
                  data={data.points}
                  shape={(props: ShapeProps) => <PointShape cx={props.cx} cy={props.cy} payload={props.payload} />}
                  isAnimationActive={false}
                />
              </ScatterChart>
            </ResponsiveContainer>
          </div>
          <p className={styles.axisLabel}>{data.axisLabel}</p>

          <div className={styles.legends}>
            <ul className={styles.pointLegend} aria-label="Points">
              {data.pointLegend.map((item) => (
                <li key={item.category} className={styles.pointItem} data-testid={`points-${item.category}`}>
                  <PointSwatch symbol={item.symbol} fill={item.fill} stroke={item.stroke} />
                  <span>
                    {item.label} <span className={styles.count}>({item.count})</span>
                  </span>
                </li>
              ))}
            </ul>
            <MarkerLegend markers={data.markers} />
          </div>
          {data.note ? (
            <p className={styles.note} data-testid="chart-note">
              {data.note}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function labelOf(data: PreparedScoreDistribution, metric: ScoreMetric): string {
  return data.metricOptions.find((o) => o.metric === metric)?.label ?? metric;
}

// ---------------------------------------------------------------------------------------------
// The wrapper with the toggle state

export interface ScoreDistributionProps {
  view: LoggedRecall;
  /** The metric to open on; defaults to raw cosine, or a keyword-only pool's own score. */
  initialMetric?: ScoreMetric;
  height?: number;
  headingLevel?: 2 | 3 | 4 | null;
}

/** The score distribution of a recall, with its Raw cosine / BM25 / Hybrid toggle. */
export function ScoreDistribution({ view, initialMetric, height, headingLevel }: ScoreDistributionProps) {
  // The choice belongs to one recall: a different recall opens on its own default.
  const [choice, setChoice] = useState<{ id: string; metric: ScoreMetric } | null>(null);
  const metric = choice !== null && choice.id === view.id ? choice.metric : (initialMetric ?? defaultScoreMetric(view));
  const data = useMemo(() => prepareScoreDistribution(view, metric), [view, metric]);
  return (
    <ScoreDistributionChart
      data={data}
      onMetricChange={(m) => setChoice({ id: view.id, metric: m })}
      height={height}
      headingLevel={headingLevel}
    />
  );
}
