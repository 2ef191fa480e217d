"use client";

/**
 * The report's charts, render-only: bins, markers, curves, colours, empty-state sentences and
 * where each threshold's label goes (for the plot's measured width) come from
 * lib/charts/eval-report.ts.
 */
import { useMemo } from "react";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { LABEL_FONT_PX, LABEL_ROW_PX, PlacedLineLabelText } from "@/components/recall/placed-line-label";
import { panelColumnClassName } from "@/components/ui/panel";
import { CLASS_COLORS, layoutDistributionLabels, type PreparedDistribution, type PreparedRoc } from "@/lib/charts/eval-report";
import { useElementWidth } from "@/lib/hooks/use-element-width";
import styles from "./evaluate.module.css";

const HEIGHT = 240;
const AXIS_TEXT = "#5b6573";
const GRID = "#e6e9ee";
/** The distribution's y axis and right margin: the plot is the chart's width less these. */
const Y_AXIS_PX = 40;
const RIGHT_PX = 12;

function Empty({ text }: { text: string }) {
  return (
    <div className={styles.chartEmpty} style={{ height: HEIGHT }} data-testid="chart-empty">
      <p>{text}</p>
    </div>
  );
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
/** Both ROC axes: a rate from 0 to 1, ticked in percent. */
const RATE_AXIS = { type: "number", domain: [0, 1], tickFormatter: pct, tick: { fill: AXIS_TEXT, fontSize: 12 } } as const;

export function SignalDistributionChart({ data, title }: { data: PreparedDistribution; title: string }) {
  const [chartRef, chartWidth] = useElementWidth();
  const labels = useMemo(
    () =>
      layoutDistributionLabels(
        data,
        chartWidth === null ? undefined : Math.max(chartWidth - Y_AXIS_PX - RIGHT_PX, 100),
        LABEL_FONT_PX,
      ),
    [data, chartWidth],
  );
  return (
    <figure
      className={`${panelColumnClassName} ${styles.headings}`}
      style={{ margin: 0 }}
      data-testid={`distribution-${data.signal}`}
    >
      <figcaption>
        <h3>{title}</h3>
        <p className={styles.hint}>
          Share of each class per bin: {data.present} present, {data.absent} absent
          {data.missing ? `, ${data.missing} without a value (not drawn)` : ""}. Dashed lines: the profile&apos;s thresholds.
        </p>
      </figcaption>
      {data.empty ? (
        <Empty text={data.empty} />
      ) : (
        <div ref={chartRef}>
          <ResponsiveContainer width="100%" height={HEIGHT + labels.rows * LABEL_ROW_PX}>
            <ComposedChart
              data={data.bins}
              margin={{ top: 8 + labels.rows * LABEL_ROW_PX, right: RIGHT_PX, bottom: 4, left: 0 }}
              barGap={0}
              barCategoryGap={1}
            >
              <CartesianGrid stroke={GRID} vertical={false} />
              <XAxis
                dataKey="x"
                type="number"
                domain={data.domain}
                tick={{ fill: AXIS_TEXT, fontSize: 12 }}
                tickFormatter={(v: number) => v.toFixed(2)}
              />
              <YAxis tickFormatter={pct} tick={{ fill: AXIS_TEXT, fontSize: 12 }} width={Y_AXIS_PX} />
              <Tooltip
                formatter={(value, name) => [pct(Number(value)), String(name)]}
                labelFormatter={(_, payload) => (payload?.[0]?.payload as { label?: string } | undefined)?.label ?? ""}
              />
              <Legend />
              <Bar
                dataKey="presentShare"
                name="present"
                fill={CLASS_COLORS.present}
                fillOpacity={0.55}
                isAnimationActive={false}
              />
              <Bar dataKey="absentShare" name="absent" fill={CLASS_COLORS.absent} fillOpacity={0.55} isAnimationActive={false} />
              {data.markers.map((m) => (
                <ReferenceLine key={m.label} x={m.value} stroke="#1b1f24" strokeDasharray="4 3" />
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
                      <PlacedLineLabelText x={props.x} y={props.y} label={label} fill={AXIS_TEXT} />
                    ),
                  }}
                />
              ))}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

export function RocChart({ data }: { data: PreparedRoc }) {
  return (
    <figure className={`${panelColumnClassName} ${styles.headings}`} style={{ margin: 0 }} data-testid="roc-chart">
      <figcaption>
        <h3>ROC: present vs absent</h3>
        <p className={styles.hint}>
          Each signal as a classifier of &ldquo;a relevant memory is present&rdquo;; the diagonal is chance. AUC counts ties half.
        </p>
      </figcaption>
      {data.empty ? (
        <Empty text={data.empty} />
      ) : (
        <>
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <LineChart margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
              <CartesianGrid stroke={GRID} />
              {/* Taller than the default axis so its name sits under the tick labels, not on them. */}
              <XAxis
                dataKey="fpr"
                {...RATE_AXIS}
                height={42}
                label={{ value: "false positive rate", position: "insideBottom", offset: 0, fontSize: 11, fill: AXIS_TEXT }}
              />
              <YAxis dataKey="tpr" {...RATE_AXIS} width={40} />
              <ReferenceLine
                segment={[
                  { x: 0, y: 0 },
                  { x: 1, y: 1 },
                ]}
                stroke="#9aa3ae"
                strokeDasharray="3 3"
              />
              {data.series.map((s) => (
                <Line
                  key={s.signal}
                  data={s.points}
                  dataKey="tpr"
                  name={s.signal}
                  stroke={s.color}
                  dot={false}
                  isAnimationActive={false}
                  type="linear"
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
          <ul className={styles.legend}>
            {data.series.map((s) => (
              <li key={s.signal}>
                <span className={styles.swatch} style={{ background: s.color }} aria-hidden="true" />
                {s.signal}: AUC {s.auc === null ? "—" : s.auc.toFixed(3)}
              </li>
            ))}
          </ul>
        </>
      )}
    </figure>
  );
}
