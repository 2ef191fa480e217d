"use client";

/** The Raw cosine / BM25 / Hybrid toggle of the score distribution (render-only). */
import { useId, type KeyboardEvent } from "react";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import type { MetricOption, ScoreMetric } from "@/lib/charts/score-distribution";
import styles from "./score-distribution.module.css";

export interface MetricToggleProps {
  options: readonly MetricOption[];
  value: ScoreMetric;
  onChange: (metric: ScoreMetric) => void;
}

/** A segmented control: Raw cosine / BM25 / Hybrid; metrics without values are disabled. */
export function MetricToggle({ options, value, onChange }: MetricToggleProps) {
  const hintId = useId();
  const unavailable = options.filter((o) => !o.available && o.reason);

  // Arrow keys move between the enabled options (Tab and Enter/Space work as for any button).
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const enabled = options.filter((o) => o.available);
    const at = enabled.findIndex((o) => o.metric === value);
    if (enabled.length === 0) return;
    const next = enabled[(at + (event.key === "ArrowRight" ? 1 : enabled.length - 1)) % enabled.length];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next.metric);
    const button = event.currentTarget.querySelector<HTMLButtonElement>(`button[data-metric="${next.metric}"]`);
    button?.focus();
  }

  return (
    <div className={styles.toggleWrap}>
      <div
        className={styles.toggle}
        role="group"
        aria-label="Score on the x axis"
        aria-describedby={unavailable.length > 0 ? hintId : undefined}
        onKeyDown={onKeyDown}
      >
        {options.map((o) => (
          <button
            key={o.metric}
            type="button"
            className={styles.toggleButton}
            data-metric={o.metric}
            aria-pressed={o.metric === value}
            disabled={!o.available}
            title={o.available ? undefined : o.reason}
            onClick={() => onChange(o.metric)}
          >
            {o.label}
          </button>
        ))}
      </div>
      {unavailable.length > 0 ? (
        <span id={hintId} className={visuallyHiddenClassName}>
          {unavailable.map((o) => `${o.label} unavailable: ${o.reason ?? ""}`).join(" ")}
        </span>
      ) : null}
    </div>
  );
}
