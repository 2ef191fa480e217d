"use client";

/**
 * Both pools of a comparison on one score axis, one lane per recall (render-only: everything drawn
 * comes from `prepareComparison`, lib/charts/compare-recalls.ts).
 */
import { useMemo, type ReactElement } from "react";
import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import {
  COMPARE_LANE_Y,
  layoutCompareLabels,
  type ComparePoint,
  type CompareSide,
  type PreparedComparison,
  type RankStatus,
} from "@/lib/charts/compare-recalls";
import type { PlacedLineLabel } from "@/lib/charts/label-placement";
import { formatScore } from "@/lib/format";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import { LABEL_ROW_PX, PlacedLineLabelText } from "../placed-line-label";
import styles from "./compare.module.css";

/** One colour per side (≥ 4.5:1 on white); the status is told by the symbol, not the colour. */
export const SIDE_COLORS: Readonly<Record<CompareSide, string>> = Object.freeze({ a: "#1f4e79", b: "#6d28d9" });

const STATUS_WORDS: Readonly<Record<RankStatus, string>> = Object.freeze({
  page: "on the page",
  dropped: "dropped by the selector",
  pool: "in the pool, not on the page",
  outside: "fetched, outside the pool",
});

const HEIGHT = 220;
/** The lane axis and the margins: the plot is the chart's width less these. */
const Y_AXIS_PX = 28;
const MARGIN = { left: 4, right: 24 } as const;
/** The plot width assumed before the chart has measured itself. */
const ASSUMED_PLOT_PX = 560;

/** A marker's label in a side's colour when it names one side. */
function MarkerLabel({ label, ...at }: { x?: number | string; y?: number | string; label: PlacedLineLabel }) {
  const sides = new Set(label.names.map((n) => n.charAt(0)));
  const fill = sides.size === 1 ? SIDE_COLORS[sides.has("A") ? "a" : "b"] : "#1b1f24";
  return <PlacedLineLabelText {...at} label={label} fill={fill} />;
}

interface ShapeProps {
  cx?: number;
  cy?: number;
  payload?: unknown;
}

function PointShape({ cx, cy, payload }: ShapeProps): ReactElement {
  const p = payload as ComparePoint | undefined;
  if (cx === undefined || cy === undefined || p === undefined) return <g />;
  const color = SIDE_COLORS[p.side];
  const r = p.isTop ? 7 : 5;
  return (
    <g data-memory-id={p.memoryId} data-side={p.side} data-status={p.status}>
      <circle cx={cx} cy={cy} r={r + 3} fill="transparent" />
      {p.status === "dropped" ? (
        <path
          d={`M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx - r} ${cy + r}L${cx + r} ${cy - r}`}
          stroke={color}
          strokeWidth={2.5}
        />
      ) : (
        <circle
          cx={cx}
          cy={cy}
          r={r}
          fill={p.status === "page" ? color : "#ffffff"}
          stroke={color}
          strokeWidth={p.status === "outside" ? 1.5 : 2}
          strokeDasharray={p.status === "outside" ? "2 2" : undefined}
        />
      )}
    </g>
  );
}

function PointTooltip({
  active,
  payload,
  axis,
}: {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
  axis: string;
}) {
  const p = payload?.[0]?.payload as ComparePoint | undefined;
  if (!active || p === undefined) return null;
  return (
    <div className={styles.tooltip}>
      <p className={styles.tooltipSummary}>{p.summary}</p>
      <p>
        <code>{p.memoryId}</code> · recall {p.side.toUpperCase()} rank {p.rank}
      </p>
      <p>
        {axis} <strong>{formatScore(p.x)}</strong> · {STATUS_WORDS[p.status]}
        {p.inOther ? "" : ` · not a candidate of ${p.side === "a" ? "B" : "A"}`}
      </p>
    </div>
  );
}

export function CompareChart({ data }: { data: PreparedComparison }) {
  const axis = data.metricOptions.find((o) => o.metric === data.metric)?.label ?? data.metric;
  const [chartRef, chartWidth] = useElementWidth();
  const labels = useMemo(
    () =>
      layoutCompareLabels(
        data,
        chartWidth === null ? ASSUMED_PLOT_PX : Math.max(chartWidth - Y_AXIS_PX - MARGIN.left - MARGIN.right, 100),
      ),
    [data, chartWidth],
  );
  if (data.chart === "empty") {
    return (
      <div
        className={styles.empty}
        data-testid="compare-chart-empty"
        role="figure"
        aria-label={`No shared axis: ${data.emptyReason}`}
      >
        <p>
          <strong>Nothing to plot.</strong> {data.emptyReason}
        </p>
      </div>
    );
  }
  const counts = (side: CompareSide) => data.points.filter((p) => p.side === side).length;
  return (
    <div
      role="figure"
      aria-label={`Both pools on one ${axis} axis: ${counts("a")} candidates of A, ${counts("b")} of B.`}
      data-testid="compare-chart"
      data-metric={data.metric}
    >
      <div style={{ height: HEIGHT + labels.rows * LABEL_ROW_PX }} ref={chartRef}>
        <ResponsiveContainer
          width="100%"
          height={HEIGHT + labels.rows * LABEL_ROW_PX}
          initialDimension={{ width: 640, height: HEIGHT + labels.rows * LABEL_ROW_PX }}
        >
          <ScatterChart margin={{ top: 8 + labels.rows * LABEL_ROW_PX, right: MARGIN.right, bottom: 4, left: MARGIN.left }}>
            <CartesianGrid horizontal={false} stroke="#e6e9ee" />
            <XAxis
              type="number"
              dataKey="x"
              domain={data.domain}
              ticks={data.ticks}
              allowDataOverflow
              tick={{ fontSize: 12 }}
              stroke="#c9ced6"
            />
            <YAxis
              type="number"
              dataKey="y"
              domain={[-0.6, 1.6]}
              ticks={[COMPARE_LANE_Y.b, COMPARE_LANE_Y.a]}
              tickFormatter={(y: number) => (y === COMPARE_LANE_Y.a ? "A" : "B")}
              width={Y_AXIS_PX}
              axisLine={false}
              tickLine={false}
              tick={{ fontSize: 13, fontWeight: 700 }}
            />
            {data.markers.map((m) => (
              <ReferenceLine
                key={m.id}
                x={m.x}
                stroke={SIDE_COLORS[m.side]}
                strokeWidth={m.kind === "top" ? 2 : 1.5}
                strokeDasharray={m.kind === "top" ? undefined : "6 4"}
                ifOverflow="hidden"
              />
            ))}
            {labels.labels.map((label) => (
              <ReferenceLine
                key={`label-${label.text}`}
                x={label.value}
                stroke="none"
                label={{
                  position: "top",
                  offset: 4,
                  content: (props: { x?: number | string; y?: number | string }) => (
                    <MarkerLabel x={props.x} y={props.y} label={label} />
                  ),
                }}
              />
            ))}
            <Tooltip
              cursor={false}
              isAnimationActive={false}
              content={(props) => <PointTooltip active={props.active} payload={props.payload} axis={axis} />}
            />
            <Scatter
              data={data.points}
              shape={(props: ShapeProps) => <PointShape cx={props.cx} cy={props.cy} payload={props.payload} />}
              isAnimationActive={false}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <p className={styles.axisLabel}>{data.axisLabel}</p>
      <ul className={styles.legend} aria-label="Legend">
        {(["a", "b"] as const).map((side) => (
          <li key={side}>
            <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
              <circle cx="7" cy="7" r="5" fill={SIDE_COLORS[side]} />
            </svg>
            recall {side.toUpperCase()} ({counts(side)} drawn)
          </li>
        ))}
        <li>● on the page · ○ in the pool · dashed ○ outside the pool · ✕ dropped</li>
        {data.markers.map((m) => (
          <li key={m.id}>
            <svg width="22" height="12" viewBox="0 0 22 12" aria-hidden="true">
              <line
                x1="1"
                y1="6"
                x2="21"
                y2="6"
                stroke={SIDE_COLORS[m.side]}
                strokeWidth={2}
                strokeDasharray={m.kind === "top" ? undefined : "6 4"}
              />
            </svg>
            {m.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
