import type { EvalRunSummary } from "@/lib/eval/run-schemas";
import styles from "./evaluate.module.css";

/** A run's status word and, while it runs, a progress bar with "done / total queries". */
export function RunStatus({ run }: { run: Pick<EvalRunSummary, "status" | "progress"> }) {
  const { done, total } = run.progress;
  const share = total ? done / total : 0;
  return (
    <span className={styles.row} style={{ gap: 8, alignItems: "center" }}>
      <span className={styles.status} data-status={run.status} data-testid="run-status">
        {run.status}
      </span>
      <span
        className={styles.progress}
        role="progressbar"
        aria-label="Queries run"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <span className={styles.progressBar} style={{ width: `${(share * 100).toFixed(1)}%`, display: "block" }} />
      </span>
      <span className={styles.small} data-testid="run-progress">
        {done} / {total} queries
      </span>
    </span>
  );
}

/** "k=5 · hybrid · selector off · profile x" */
export function settingsText(s: EvalRunSummary["settings"]): string {
  return [
    `${s.store}`,
    `k=${s.k}`,
    s.search_mode,
    `selector ${s.selector}`,
    s.use_rerank ? "reranked" : null,
    s.profile ? `profile ${s.profile}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** 0.4183 → "0.418"; null → "—". */
export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function fmtDelta(value: number | null, digits = 3): string {
  if (value === null) return "—";
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}
