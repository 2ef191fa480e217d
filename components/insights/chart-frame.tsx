"use client";

/**
 * What every Insights time chart shares, render-only: the tooltip (lines from the prepare step),
 * the hollow dot of a thin rate, the empty chart's sentence, and `SeriesChartFrame` — legend,
 * empty state, a rate axis (0–100 %) on the left and a count axis on the right, click to open a
 * bucket — around the series each chart draws. Everything drawn is decided in lib/insights/chart.ts.
 */
import type { ReactElement, ReactNode } from "react";
import { CartesianGrid, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { tickIntervalForWidth } from "@/lib/charts/label-placement";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import type { CountAxis, TooltipLine } from "@/lib/insights/chart";
import styles from "./chart-frame.module.css";

export const CHART_HEIGHT = 260;
export const TICK_FONT_PX = 12;
export const AXIS_TEXT = "#5b6573";
export const GRID = "#e6e9ee";

interface TooltipPoint {
  title: string;
  tooltip: TooltipLine[];
  notes: string[];
  thin?: boolean;
}

interface ChartTooltipArgs {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
}

export function ChartTooltip({ active, payload }: ChartTooltipArgs) {
  const point = payload?.[0]?.payload as TooltipPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className={styles.tooltip} data-testid="chart-tooltip">
      <p className={styles.tooltipTitle}>{point.title}</p>
      <ul className={styles.tooltipLines}>
        {point.tooltip.map((line: TooltipLine) => (
          <li key={line.label} className={line.muted ? styles.mutedLine : undefined}>
            {line.color ? <span className={styles.swatch} style={{ background: line.color }} aria-hidden="true" /> : null}
            <span>{line.label}</span>
            <span className={styles.tooltipValue}>{line.value}</span>
          </li>
        ))}
      </ul>
      {point.notes.map((note) => (
        <p key={note} className={styles.tooltipNote}>
          {note}
        </p>
      ))}
    </div>
  );
}

/** The Recharts tooltip every Insights chart uses. */
export function chartTooltip() {
  return (
    <Tooltip
      cursor={{ fill: "rgba(47, 91, 211, 0.06)" }}
      isAnimationActive={false}
      content={(props) => <ChartTooltip active={props.active} payload={props.payload} />}
    />
  );
}

interface DotArgs {
  cx?: number;
  cy?: number;
  payload?: unknown;
  value?: unknown;
}

/** A rate's dot: solid, or hollow when the rate stands on few recalls; nothing for a gap. */
export function rateDot(color: string) {
  function RateDot({ cx, cy, payload, value }: DotArgs): ReactElement {
    if (cx === undefined || cy === undefined || value === null || value === undefined) return <g />;
    const thin = (payload as TooltipPoint | undefined)?.thin ?? false;
    return <circle cx={cx} cy={cy} r={thin ? 3 : 3.5} fill={thin ? "#fff" : color} stroke={color} strokeWidth={thin ? 1.5 : 1} />;
  }
  return RateDot;
}

export function EmptyChart({ text }: { text: string }) {
  return (
    <div className={styles.chartEmpty} data-testid="chart-empty" style={{ height: CHART_HEIGHT }}>
      <p>{text}</p>
    </div>
  );
}

/** One legend entry: a filled box, a line, a dashed line or a hollow dot. */
export interface LegendEntry {
  label: string;
  color?: string;
  kind: "box" | "line" | "dashed" | "hollow";
}

export function ChartLegend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul className={styles.legend} aria-label="Legend">
      {entries.map((e) => (
        <li key={e.label}>
          {e.kind === "box" ? (
            <span className={styles.swatch} style={{ background: e.color }} aria-hidden="true" />
          ) : e.kind === "hollow" ? (
            <span className={styles.hollow} aria-hidden="true" />
          ) : (
            <span
              className={`${styles.swatchLine} ${e.kind === "dashed" ? styles.swatchDashed : ""}`}
              style={{ borderColor: e.color }}
              aria-hidden="true"
            />
          )}
          {e.label}
        </li>
      ))}
    </ul>
  );
}

export function clickHandler(onOpenBucket: ((index: number) => void) | undefined) {
  if (!onOpenBucket) return undefined;
  return (state: { activeTooltipIndex?: unknown }) => {
    const index = Number(state.activeTooltipIndex);
    if (Number.isInteger(index) && index >= 0) onOpenBucket(index);
  };
}

const percentTick = (value: number) => `${value}%`;
const countTick = (value: number) => value.toLocaleString("en-US");

export interface SeriesChartFrameProps {
  testId: string;
  label: string;
  legend: readonly LegendEntry[];
  /** Why there is nothing to draw (the prepare step's sentence), or null. */
  empty: string | null;
  points: readonly object[];
  countAxis: CountAxis;
  onOpenBucket?: ((index: number) => void) | undefined;
  /** The chart's bars, lines and reference lines (Recharts elements, rendered inside the chart). */
  children: ReactNode;
  /** Under the chart (e.g. the list of series markers). */
  after?: ReactNode;
  /** Room above the plot for reference-line labels (the selector chart's ◆), so none is cut off at the top. */
  labelRoom?: boolean;
}

/** The y axes and margins of the series charts: the plot is the chart's width less these. */
const RATE_AXIS_PX = 44;
const COUNT_AXIS_PX = 48;
const FRAME_RIGHT_PX = 4;

/**
 * The x axis's `interval` for a chart `width` px wide (null before it is measured) whose plot is
 * `inset` px narrower: as many bucket ticks as fit side by side (lib/charts/label-placement.ts),
 * so a phone's hour ticks do not run together.
 */
export function bucketTickInterval(points: readonly object[], width: number | null, inset: number): number {
  const ticks = points.map((p) => String((p as { tick?: unknown }).tick ?? ""));
  return tickIntervalForWidth(ticks, width === null ? null : Math.max(width - inset, 40), TICK_FONT_PX);
}

/** A rate (left, %) and count (right) chart over the buckets: the Insights series charts' one scaffold. */
export function SeriesChartFrame({
  testId,
  label,
  legend,
  empty,
  points,
  countAxis,
  onOpenBucket,
  children,
  after,
  labelRoom = false,
}: SeriesChartFrameProps) {
  const [chartRef, width] = useElementWidth(10);
  return (
    <figure className={styles.chartFigure} data-testid={testId} aria-label={label}>
      <ChartLegend entries={legend} />
      {empty ? (
        <EmptyChart text={empty} />
      ) : (
        <div className={onOpenBucket ? styles.chartClickable : undefined} ref={chartRef}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 560, height: CHART_HEIGHT }}>
            <ComposedChart
              data={points as object[]}
              margin={{ top: labelRoom ? 22 : 8, right: FRAME_RIGHT_PX, bottom: 0, left: 0 }}
              onClick={clickHandler(onOpenBucket)}
            >
              <CartesianGrid vertical={false} stroke={GRID} />
              <XAxis
                dataKey="tick"
                interval={bucketTickInterval(points, width, RATE_AXIS_PX + COUNT_AXIS_PX + FRAME_RIGHT_PX)}
                tick={{ fill: AXIS_TEXT, fontSize: TICK_FONT_PX }}
                stroke={GRID}
              />
              <YAxis
                yAxisId="rate"
                domain={[0, 100]}
                ticks={[0, 25, 50, 75, 100]}
                tickFormatter={percentTick}
                width={RATE_AXIS_PX}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              <YAxis
                yAxisId="count"
                orientation="right"
                domain={[0, countAxis.max]}
                ticks={countAxis.ticks}
                tickFormatter={countTick}
                width={COUNT_AXIS_PX}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              {chartTooltip()}
              {children}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
      {after}
    </figure>
  );
}
