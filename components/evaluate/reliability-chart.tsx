import type { ReliabilityBin } from "@/lib/calibration/model/reliability";
import { reliabilityChart } from "@/lib/eval/reliability-chart";

/** The reliability diagram: predicted probability (x) against the observed rate (y), the diagonal a calibrated probability lies on. */
export function ReliabilityChart({ bins, ece }: { bins: readonly ReliabilityBin[]; ece: number | null }) {
  const c = reliabilityChart(bins);
  return (
    <svg
      width={c.size}
      height={c.size}
      viewBox={`0 0 ${c.size} ${c.size}`}
      role="img"
      aria-label={`Reliability diagram: predicted probability against the observed rate; ECE ${ece === null ? "—" : ece.toFixed(3)}`}
      data-testid="reliability-chart"
    >
      <rect x={c.pad} y={c.pad} width={c.size - 2 * c.pad} height={c.size - 2 * c.pad} fill="none" stroke="var(--border)" />
      <line {...c.diagonal} stroke="var(--muted)" strokeDasharray="4 3" />
      {c.ticks.map((t) => (
        <g key={t.value} fontSize="10" fill="var(--muted)">
          <text x={t.at} y={c.size - c.pad + 12} textAnchor="middle">
            {t.value}
          </text>
          <text x={c.pad - 6} y={c.size - t.at + 3} textAnchor="end">
            {t.value}
          </text>
        </g>
      ))}
      <text x={c.size / 2} y={c.size - 2} textAnchor="middle" fontSize="10" fill="var(--muted)">
        predicted
      </text>
      <text x={8} y={c.size / 2} textAnchor="middle" fontSize="10" fill="var(--muted)" transform={`rotate(-90 8 ${c.size / 2})`}>
        observed
      </text>
      {c.points.map((p, i) => (
        <circle key={i} cx={p.x} cy={p.y} r={p.r} fill="var(--level-high)" fillOpacity={0.6}>
          <title>{p.label}</title>
        </circle>
      ))}
    </svg>
  );
}
