import { isWorthReading, LEVELS, type Level } from "@/lib/recall/confidence";

/**
 * The triage claim of a level, judged against labels (pure; reused by threshold fitting).
 * "Worth reading" is high or moderate; "go external" is low or none. A query is present when a
 * relevant memory is stored for it. Every ratio with an empty denominator is null, never NaN.
 */

export type Confusion = Record<Level, { present: number; absent: number }>;

export interface TriageCase {
  level: Level;
  present: boolean;
}

/** The reference's own rule (lib/recall/level.ts), re-exported for the triage counts' callers. */
export { isWorthReading };

export function emptyConfusion(): Confusion {
  return {
    high: { present: 0, absent: 0 },
    moderate: { present: 0, absent: 0 },
    low: { present: 0, absent: 0 },
    none: { present: 0, absent: 0 },
  };
}

/** Level × present/absent counts. */
export function confusion(cases: readonly TriageCase[]): Confusion {
  const matrix = emptyConfusion();
  for (const c of cases) matrix[c.level][c.present ? "present" : "absent"] += 1;
  return matrix;
}

export const ratio = (numerator: number, denominator: number): number | null =>
  denominator === 0 ? null : numerator / denominator;

export interface TriageScores {
  /** Worth reading and present, worth reading and absent, go external and present, go external and absent. */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** (tp + tn) / n. */
  accuracy: number | null;
  /** Mean of the rates on present (tp / (tp + fn)) and absent (tn / (tn + fp)); null when a class is empty. */
  balanced_accuracy: number | null;
  /** Of the "worth reading" verdicts, how many had a relevant memory present. */
  worth_reading_precision: number | null;
  /** Of the present queries, how many were called worth reading. */
  worth_reading_recall: number | null;
}

export function triageScores(matrix: Confusion): TriageScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const level of LEVELS) {
    const cell = matrix[level];
    if (isWorthReading(level)) {
      tp += cell.present;
      fp += cell.absent;
    } else {
      fn += cell.present;
      tn += cell.absent;
    }
  }
  const tpr = ratio(tp, tp + fn);
  const tnr = ratio(tn, tn + fp);
  return {
    tp,
    fp,
    fn,
    tn,
    accuracy: ratio(tp + tn, tp + fp + fn + tn),
    balanced_accuracy: tpr === null || tnr === null ? null : (tpr + tnr) / 2,
    worth_reading_precision: ratio(tp, tp + fp),
    worth_reading_recall: tpr,
  };
}

/** P(present | level) for each level; null for a level no query got. */
export function presentGivenLevel(matrix: Confusion): Record<Level, number | null> {
  const out = {} as Record<Level, number | null>;
  for (const level of LEVELS) out[level] = ratio(matrix[level].present, matrix[level].present + matrix[level].absent);
  return out;
}
