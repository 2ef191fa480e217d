"use client";

/**
 * The two Insights time series, render-only: every number, colour, tooltip line and empty-chart
 * sentence comes from the prepare steps in lib/insights/chart.ts.
 *
 * - Selector: drop rate (line) and lost-any rate (dashed line) in percent, over the volume the
 *   selector ran on (bars, right axis).
 * - Level mix: stacked counts per level (none at the bottom), with the weak-hit rate as a line.
 * Thin points (few recalls) are drawn hollow; a click on a bucket opens its recalls in History.
 */
import type { ReactElement } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import {
  CHART_COLORS,
  LEVEL_STACK,
  LOW_VOLUME_RECALLS,
  tickInterval,
  type LevelPoint,
  type PreparedChart,
  type SelectorPoint,
  type TooltipLine,
} from "@/lib/insights/chart";
import styles from "./insights.module.css";

export const CHART_HEIGHT = 260;
const AXIS_TEXT = "#5b6573";
const GRID = "#e6e9ee";

interface ChartTooltipArgs {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
}

function ChartTooltip({ active, payload }: ChartTooltipArgs) {
  const point = payload?.[0]?.payload as (SelectorPoint | LevelPoint) | undefined;
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

interface DotArgs {
  cx?: number;
  cy?: number;
  payload?: unknown;
  value?: unknown;
}

/** A rate's dot: solid, or hollow when the rate stands on few recalls; nothing for a gap. */
function rateDot(color: string) {
  function RateDot({ cx, cy, payload, value }: DotArgs): ReactElement {
    if (cx === undefined || cy === undefined || value === null || value === undefined) return <g />;
    const thin = (payload as SelectorPoint | LevelPoint | undefined)?.thin ?? false;
    return <circle cx={cx} cy={cy} r={thin ? 3 : 3.5} fill={thin ? "#fff" : color} stroke={color} strokeWidth={thin ? 1.5 : 1} />;
  }
  return RateDot;
}

function EmptyChart({ text }: { text: string }) {
  return (
    <div className={styles.chartEmpty} data-testid="chart-empty" style={{ height: CHART_HEIGHT }}>
      <p>{text}</p>
    </div>
  );
}

const percentTick = (value: number) => `${value}%`;
const countTick = (value: number) => value.toLocaleString("en-US");

interface ChartProps<P> {
  data: PreparedChart<P>;
  /** Opens the recalls of a bucket (its index in `data.points`). */
  onOpenBucket?: (index: number) => void;
}

function clickHandler(onOpenBucket: ((index: number) => void) | undefined) {
  if (!onOpenBucket) return undefined;
  return (state: { activeTooltipIndex?: unknown }) => {
    const index = Number(state.activeTooltipIndex);
    if (Number.isInteger(index) && index >= 0) onOpenBucket(index);
  };
}

export function SelectorChart({ data, onOpenBucket }: ChartProps<SelectorPoint>) {
  return (
    <figure className={styles.chartFigure} data-testid="selector-chart" aria-label="Selector drop rate over time">
      <ul className={styles.legend} aria-label="Legend">
        <li>
          <span className={styles.swatchLine} style={{ borderColor: CHART_COLORS.dropRate }} aria-hidden="true" />
          Drop rate (results dropped of kept + dropped)
        </li>
        <li>
          <span
            className={`${styles.swatchLine} ${styles.swatchDashed}`}
            style={{ borderColor: CHART_COLORS.lostAny }}
            aria-hidden="true"
          />
          Recalls that lost ≥ 1 result
        </li>
        <li>
          <span
            className={`${styles.swatchLine} ${styles.swatchDashed}`}
            style={{ borderColor: CHART_COLORS.failureRate }}
            aria-hidden="true"
          />
          Selector failures (of the runs it ran or tried)
        </li>
        {data.markers.length > 0 ? (
          <li>
            <span
              className={`${styles.swatchLine} ${styles.swatchDashed}`}
              style={{ borderColor: CHART_COLORS.marker }}
              aria-hidden="true"
            />
            Selector model or prompt changed
          </li>
        ) : null}
        <li>
          <span className={styles.swatch} style={{ background: CHART_COLORS.volume }} aria-hidden="true" />
          Recalls the selector ran on (right axis)
        </li>
        <li>
          <span className={styles.hollow} aria-hidden="true" />
          Fewer than {LOW_VOLUME_RECALLS} recalls
        </li>
      </ul>
      {data.empty ? (
        <EmptyChart text={data.empty} />
      ) : (
        <div className={onOpenBucket ? styles.chartClickable : undefined}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 560, height: CHART_HEIGHT }}>
            <ComposedChart
              data={data.points}
              margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
              onClick={clickHandler(onOpenBucket)}
            >
              <CartesianGrid vertical={false} stroke={GRID} />
              <XAxis
                dataKey="tick"
                interval={tickInterval(data.points.length)}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                stroke={GRID}
              />
              <YAxis
                yAxisId="rate"
                domain={[0, 100]}
                ticks={[0, 25, 50, 75, 100]}
                tickFormatter={percentTick}
                width={44}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              <YAxis
                yAxisId="count"
                orientation="right"
                domain={[0, data.countAxis.max]}
                ticks={data.countAxis.ticks}
                tickFormatter={countTick}
                width={48}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              <Tooltip
                cursor={{ fill: "rgba(47, 91, 211, 0.06)" }}
                isAnimationActive={false}
                content={(props) => <ChartTooltip active={props.active} payload={props.payload} />}
              />
              <Bar yAxisId="count" dataKey="applied" fill={CHART_COLORS.volume} isAnimationActive={false} maxBarSize={36} />
              <Line
                yAxisId="rate"
                dataKey="dropRate"
                stroke={CHART_COLORS.dropRate}
                strokeWidth={2}
                dot={rateDot(CHART_COLORS.dropRate)}
                activeDot={{ r: 5 }}
                connectNulls={false}
                isAnimationActive={false}
              />
              <Line
                yAxisId="rate"
                dataKey="lostAnyRate"
                stroke={CHART_COLORS.lostAny}
                strokeWidth={1.5}
                strokeDasharray="5 4"
                dot={rateDot(CHART_COLORS.lostAny)}
                activeDot={{ r: 4 }}
                connectNulls={false}
                isAnimationActive={false}
              />
              <Line
                yAxisId="rate"
                dataKey="failureRate"
                stroke={CHART_COLORS.failureRate}
                strokeWidth={1.5}
                strokeDasharray="2 3"
                dot={rateDot(CHART_COLORS.failureRate)}
                activeDot={{ r: 4 }}
                connectNulls={false}
                isAnimationActive={false}
              />
              {data.markers.map((m) => (
                <ReferenceLine
                  key={m.key}
                  yAxisId="rate"
                  x={m.tick}
                  stroke={CHART_COLORS.marker}
                  strokeDasharray="4 3"
                  label={{ value: "◆", position: "top", fill: CHART_COLORS.marker, fontSize: 11 }}
                />
              ))}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
      {data.markers.length > 0 ? (
        <ul className={styles.markerList} aria-label="Where the selector changed" data-testid="series-markers">
          {data.markers.map((m) => (
            <li key={m.key} data-testid="series-marker">
              <strong>{m.tick}</strong>: {m.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

export function LevelChart({ data, onOpenBucket }: ChartProps<LevelPoint>) {
  return (
    <figure className={styles.chartFigure} data-testid="level-chart" aria-label="Confidence level mix over time">
      <ul className={styles.legend} aria-label="Legend">
        {[...LEVEL_STACK].reverse().map((l) => (
          <li key={l.level}>
            <span className={styles.swatch} style={{ background: l.color }} aria-hidden="true" />
            {l.label}
          </li>
        ))}
        <li>
          <span className={styles.swatchLine} style={{ borderColor: CHART_COLORS.weakHit }} aria-hidden="true" />
          Weak-hit rate, none + low (left axis)
        </li>
      </ul>
      {data.empty ? (
        <EmptyChart text={data.empty} />
      ) : (
        <div className={onOpenBucket ? styles.chartClickable : undefined}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 560, height: CHART_HEIGHT }}>
            <ComposedChart
              data={data.points}
              margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
              onClick={clickHandler(onOpenBucket)}
            >
              <CartesianGrid vertical={false} stroke={GRID} />
              <XAxis
                dataKey="tick"
                interval={tickInterval(data.points.length)}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                stroke={GRID}
              />
              <YAxis
                yAxisId="rate"
                domain={[0, 100]}
                ticks={[0, 25, 50, 75, 100]}
                tickFormatter={percentTick}
                width={44}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              <YAxis
                yAxisId="count"
                orientation="right"
                domain={[0, data.countAxis.max]}
                ticks={data.countAxis.ticks}
                tickFormatter={countTick}
                width={48}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
              />
              <Tooltip
                cursor={{ fill: "rgba(47, 91, 211, 0.06)" }}
                isAnimationActive={false}
                content={(props) => <ChartTooltip active={props.active} payload={props.payload} />}
              />
              {LEVEL_STACK.map((l) => (
                <Bar
                  key={l.level}
                  yAxisId="count"
                  stackId="levels"
                  dataKey={l.level}
                  name={l.label}
                  fill={l.color}
                  isAnimationActive={false}
                  maxBarSize={36}
                />
              ))}
              <Line
                yAxisId="rate"
                dataKey="weakHitRate"
                stroke={CHART_COLORS.weakHit}
                strokeWidth={2}
                dot={rateDot(CHART_COLORS.weakHit)}
                activeDot={{ r: 5 }}
                connectNulls={false}
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
