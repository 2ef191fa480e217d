"use client";

/**
 * The score distribution of one recall (docs/ARCHITECTURE.md "The product in one paragraph"): a strip plot of the candidates' scores with the
 * background mean, the top and the confidence thresholds drawn in the same space. For a store that
 * does not expose its pool (lib/recall/README.md "Wire translation"), the markers its confidence block allows and the returned
 * results where they share the axis, with a note that says what is missing.
 *
 * Render-only: every position, colour, label and sentence comes from `prepareScoreDistribution`
 * (lib/charts/score-distribution/). `ScoreDistribution` holds the metric toggle and calls
 * prepare; `ScoreDistributionChart` draws a prepared result. The pieces live beside it: the
 * metric toggle (`metric-toggle.tsx`), the point symbols and tooltip (`point-shapes.tsx`), the
 * legends (`legends.tsx`).
 */
import { useMemo, useState } from "react";
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
import {
  defaultScoreMetric,
  prepareScoreDistribution,
  relayoutMarkerLabels,
  type PreparedScoreDistribution,
  type ScoreMetric,
} from "@/lib/charts/score-distribution";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { ChartCallouts, MarkerLegend, PointSwatch } from "./legends";
import { MetricToggle } from "./metric-toggle";
import { PointShape, PointTooltip, type ShapeProps } from "./point-shapes";
import styles from "./score-distribution.module.css";

export { MetricToggle, type MetricToggleProps } from "./metric-toggle";

export const SCORE_DISTRIBUTION_HEIGHT = 260;

const LABEL_ROW_PX = 14;
/** What the plot loses to the lane labels on the left and the margins: the plot is the rest. */
const PLOT_INSET_PX = 110;
const AXIS_TEXT = "#5b6573";
const GRID = "#e6e9ee";

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
  /** Opens "why isn't X here?" for a memory a notice names. */
  onAskWhy?: (memoryId: string) => void;
}

/** Draws a prepared score distribution, or explains why there is nothing to draw. */
export function ScoreDistributionChart({
  data: prepared,
  onMetricChange,
  height = SCORE_DISTRIBUTION_HEIGHT,
  headingLevel = 3,
  onAskWhy,
}: ScoreDistributionChartProps) {
  // The marker labels are laid out for the plot's measured width, so on a phone they take more
  // rows or give way (the legend names every marker) instead of colliding.
  const [chartRef, chartWidth] = useElementWidth();
  const data = useMemo(
    () => (chartWidth === null ? prepared : relayoutMarkerLabels(prepared, Math.max(chartWidth - PLOT_INSET_PX, 120))),
    [prepared, chartWidth],
  );
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
          <ChartCallouts callouts={data.callouts} onAskWhy={onAskWhy} />
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
          <div className={styles.chart} style={{ height }} ref={chartRef}>
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
                      label={
                        m.labelRow < 0
                          ? undefined
                          : {
                              value: m.shortLabel,
                              position: "top",
                              offset: 4 + m.labelRow * LABEL_ROW_PX,
                              fill: m.color,
                              fontSize: 11,
                              fontWeight: m.kind === "top" ? 700 : 500,
                            }
                      }
                    />
                  ))}
                <Tooltip
                  cursor={false}
                  isAnimationActive={false}
                  content={(props) => (
                    <PointTooltip
                      active={props.active}
                      payload={props.payload}
                      axisName={axisName}
                      missingBm25={data.missingBm25}
                    />
                  )}
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
                    {item.label} <span className={styles.count}>({item.countText})</span>
                  </span>
                </li>
              ))}
            </ul>
            <MarkerLegend markers={data.markers} />
          </div>
          <ChartCallouts callouts={data.callouts} onAskWhy={onAskWhy} />
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
  /** Opens "why isn't X here?" for a memory a notice names. */
  onAskWhy?: (memoryId: string) => void;
}

/** The score distribution of a recall, with its Raw cosine / BM25 / Hybrid toggle. */
export function ScoreDistribution({ view, initialMetric, height, headingLevel, onAskWhy }: ScoreDistributionProps) {
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
      onAskWhy={onAskWhy}
    />
  );
}
