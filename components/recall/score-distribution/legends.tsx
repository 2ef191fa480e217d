/** The legends of the score distribution, which are also the figure's text alternative (render-only). */
import { Button } from "@/components/ui/button";
import {
  NOTICE_STROKE,
  noticeTitle,
  type ChartCallout,
  type DistributionMarker,
  type PointSymbol,
} from "@/lib/charts/score-distribution";
import { SymbolShape } from "./point-shapes";
import styles from "./score-distribution.module.css";

export function LineSwatch({ marker }: { marker: DistributionMarker }) {
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

export function PointSwatch({ symbol, fill, stroke }: { symbol: PointSymbol; fill: string; stroke: string }) {
  return (
    <svg className={styles.swatch} width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <SymbolShape kind={symbol} cx={7} cy={7} r={4.5} fill={fill} stroke={stroke} />
    </svg>
  );
}

export function MarkerLegend({ markers }: { markers: readonly DistributionMarker[] }) {
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

/** The recall's notices, each naming its memory; shown under the chart whether or not it drew. */
export function ChartCallouts({
  callouts,
  onAskWhy,
}: {
  callouts: readonly ChartCallout[];
  /** Opens "why isn't X here?" for the memory; without it no button is shown. */
  onAskWhy?: (memoryId: string) => void;
}) {
  if (callouts.length === 0) return null;
  return (
    <ul className={styles.callouts} aria-label="Notices">
      {callouts.map((c, i) => (
        <li key={`${c.kind}-${c.memoryId ?? ""}-${i}`} className={styles.callout} data-testid="chart-notice" data-kind={c.kind}>
          <svg className={styles.swatch} width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
            <circle cx={7} cy={7} r={5.5} fill="none" stroke={NOTICE_STROKE} strokeWidth={2} strokeDasharray="3 2" />
          </svg>
          <span>
            <strong>{noticeTitle(c.kind)}</strong>
            {c.memoryId ? (
              <>
                {" "}
                <code data-testid="chart-notice-memory">{c.memoryId}</code>
              </>
            ) : null}
            : {c.message}
            {c.memoryId && !c.onChart ? " (not drawn on this axis)" : ""}
          </span>
          {c.memoryId && onAskWhy ? (
            <Button size="small" className={styles.calloutAction} onClick={() => onAskWhy(c.memoryId!)}>
              Why?
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
