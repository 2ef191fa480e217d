/** Triage figures of a calibration: balanced accuracy and the level × present/absent matrix. */
// The level × present/absent matrix is evaluation's (lib/eval/README.md "Evaluation"); fitting counts into the same shape.
import type { Confusion as LevelConfusion } from "@/lib/eval/triage";

export { emptyConfusion, type Confusion as LevelConfusion } from "@/lib/eval/triage";

/** (TPR + TNR) / 2 with "worth reading" as the positive call; null when a class is empty. */
export function balancedAccuracy(c: { tp: number; fn: number; tn: number; fp: number }): number | null {
  const pos = c.tp + c.fn;
  const neg = c.tn + c.fp;
  if (pos === 0 || neg === 0) return null;
  return (c.tp / pos + c.tn / neg) / 2;
}

export function countsFromConfusion(m: LevelConfusion): { tp: number; fn: number; tn: number; fp: number } {
  return {
    tp: m.high.present + m.moderate.present,
    fn: m.low.present + m.none.present,
    tn: m.low.absent + m.none.absent,
    fp: m.high.absent + m.moderate.absent,
  };
}

export function countsFromCalls(calls: readonly { present: boolean; worth: boolean }[]): {
  tp: number;
  fn: number;
  tn: number;
  fp: number;
} {
  const c = { tp: 0, fn: 0, tn: 0, fp: 0 };
  for (const { present, worth } of calls) {
    c[present ? (worth ? "tp" : "fn") : worth ? "fp" : "tn"]++;
  }
  return c;
}
