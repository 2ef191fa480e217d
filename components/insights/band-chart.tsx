"use client";

/**
 * Percentile bands over time, render-only: p10–p90 (light), p25–p75 (darker) and the median of
 * one store's top score or prominence per bucket. Every value, tick and sentence comes from
 * lib/insights/bands.ts.
 */
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import { BAND_COLORS, type PreparedBands } from "@/lib/insights/bands";
import {
  AXIS_TEXT,
  bucketTickInterval,
  CHART_HEIGHT,
  ChartLegend,
  chartTooltip,
  EmptyChart,
  GRID,
  TICK_FONT_PX,
} from "./chart-frame";
import styles from "./chart-frame.module.css";

const LEGEND = [
  { kind: "box" as const, color: BAND_COLORS.outer, label: "p10–p90" },
  { kind: "box" as const, color: BAND_COLORS.inner, label: "p25–p75" },
  { kind: "line" as const, color: BAND_COLORS.median, label: "Median" },
];

/** The y axis and right margin: the plot is the chart's width less these. */
const Y_AXIS_PX = 52;
const RIGHT_PX = 8;

export function BandChart({ data, testId, label }: { data: PreparedBands; testId: string; label: string }) {
  const [chartRef, width] = useElementWidth(10);
  return (
    <figure className={styles.chartFigure} data-testid={testId} aria-label={label}>
      <ChartLegend entries={LEGEND} />
      {data.empty ? (
        <EmptyChart text={data.empty} />
      ) : (
        <div ref={chartRef}>
          <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 560, height: CHART_HEIGHT }}>
            <ComposedChart data={data.points} margin={{ top: 8, right: RIGHT_PX, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke={GRID} />
              <XAxis
                dataKey="tick"
                interval={bucketTickInterval(data.points, width, Y_AXIS_PX + RIGHT_PX)}
                tick={{ fill: AXIS_TEXT, fontSize: TICK_FONT_PX }}
                stroke={GRID}
              />
              <YAxis
                domain={data.domain}
                ticks={data.ticks}
                width={Y_AXIS_PX}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                axisLine={false}
                tickLine={false}
                allowDataOverflow
              />
              {chartTooltip()}
              <Area
                dataKey="outer"
                stroke="none"
                fill={BAND_COLORS.outer}
                fillOpacity={0.9}
                isAnimationActive={false}
                connectNulls={false}
              />
              <Area
                dataKey="inner"
                stroke="none"
                fill={BAND_COLORS.inner}
                fillOpacity={0.9}
                isAnimationActive={false}
                connectNulls={false}
              />
              <Line
                dataKey="median"
                stroke={BAND_COLORS.median}
                strokeWidth={2}
                dot={{ r: 2.5, fill: BAND_COLORS.median }}
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
