"use client";

/**
 * The two Insights time series, render-only, on one scaffold (chart-frame.tsx): every number,
 * colour, tooltip line and empty-chart sentence comes from the prepare steps in lib/insights/chart.ts.
 *
 * - Selector: drop rate (line) and lost-any rate (dashed line) in percent, over the volume the
 *   selector ran on (bars, right axis).
 * - Level mix: stacked counts per level (none at the bottom) under one judge (the store's verdict
 *   unless another is chosen, lib/insights/judges.ts), with the weak-hit rate as a line.
 * Thin points (few recalls) are drawn hollow; a click on a bucket opens its recalls in History.
 */
import { Bar, Line, ReferenceLine } from "recharts";
import {
  CHART_COLORS,
  LEVEL_STACK,
  LOW_VOLUME_RECALLS,
  type LevelPoint,
  type PreparedChart,
  type SelectorPoint,
} from "@/lib/insights/chart";
import { rateDot, SeriesChartFrame, type LegendEntry } from "./chart-frame";
import styles from "./insights.module.css";

export { CHART_HEIGHT } from "./chart-frame";

interface ChartProps<P> {
  data: PreparedChart<P>;
  /** Opens the recalls of a bucket (its index in `data.points`). */
  onOpenBucket?: (index: number) => void;
}

/** A rate line on the left axis: solid, or dashed/dotted for the secondary rates. */
function rateLine(dataKey: string, color: string, dash?: string) {
  return (
    <Line
      key={dataKey}
      yAxisId="rate"
      dataKey={dataKey}
      stroke={color}
      strokeWidth={dash ? 1.5 : 2}
      strokeDasharray={dash}
      dot={rateDot(color)}
      activeDot={{ r: dash ? 4 : 5 }}
      connectNulls={false}
      isAnimationActive={false}
    />
  );
}

export function SelectorChart({ data, onOpenBucket }: ChartProps<SelectorPoint>) {
  const legend: LegendEntry[] = [
    { kind: "line", color: CHART_COLORS.dropRate, label: "Drop rate (results dropped of kept + dropped)" },
    { kind: "dashed", color: CHART_COLORS.lostAny, label: "Recalls that lost ≥ 1 result" },
    { kind: "dashed", color: CHART_COLORS.failureRate, label: "Selector failures (of the runs it ran or tried)" },
    ...(data.markers.length > 0
      ? [{ kind: "dashed" as const, color: CHART_COLORS.marker, label: "Selector model or prompt changed" }]
      : []),
    { kind: "box", color: CHART_COLORS.volume, label: "Recalls the selector ran on (right axis)" },
    { kind: "hollow", label: `Fewer than ${LOW_VOLUME_RECALLS} recalls` },
  ];
  return (
    <SeriesChartFrame
      testId="selector-chart"
      label="Selector drop rate over time"
      legend={legend}
      empty={data.empty}
      points={data.points}
      countAxis={data.countAxis}
      onOpenBucket={onOpenBucket}
      labelRoom={data.markers.length > 0}
      after={
        data.markers.length > 0 ? (
          <ul className={styles.markerList} aria-label="Where the selector changed" data-testid="series-markers">
            {data.markers.map((m) => (
              <li key={m.key} data-testid="series-marker">
                <strong>{m.tick}</strong>: {m.label}
              </li>
            ))}
          </ul>
        ) : null
      }
    >
      <Bar yAxisId="count" dataKey="applied" fill={CHART_COLORS.volume} isAnimationActive={false} maxBarSize={36} />
      {rateLine("dropRate", CHART_COLORS.dropRate)}
      {rateLine("lostAnyRate", CHART_COLORS.lostAny, "5 4")}
      {rateLine("failureRate", CHART_COLORS.failureRate, "2 3")}
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
    </SeriesChartFrame>
  );
}

export function LevelChart({
  data,
  onOpenBucket,
  title,
  judge,
}: ChartProps<LevelPoint> & { title: string; /** Who judged the levels, for the legend: "store's verdict". */ judge: string }) {
  const legend: LegendEntry[] = [
    ...[...LEVEL_STACK].reverse().map((l) => ({ kind: "box" as const, color: l.color, label: l.label })),
    { kind: "line", color: CHART_COLORS.weakHit, label: `Weak-hit rate (none + low), ${judge}, left axis` },
  ];
  return (
    <SeriesChartFrame
      testId="level-chart"
      label={`${title} over time`}
      legend={legend}
      empty={data.empty}
      points={data.points}
      countAxis={data.countAxis}
      onOpenBucket={onOpenBucket}
    >
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
      {rateLine("weakHitRate", CHART_COLORS.weakHit)}
    </SeriesChartFrame>
  );
}
