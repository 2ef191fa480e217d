/**
 * ROC curves and AUC of a signal separating two classes (pure; reused by threshold fitting).
 *
 * AUC is the Mann–Whitney probability that a positive scores above a negative, ties counting
 * half; it equals the trapezoid area under `rocCurve`, whose tied scores form one diagonal step.
 * An empty class gives null, never NaN. Non-finite scores are left out (a null signal, such as a
 * flat background's relative margin, is not evidence either way).
 */

export interface RocPoint {
  /** Scores ≥ threshold are called positive at this point. */
  threshold: number;
  fpr: number;
  tpr: number;
}

export interface RocCurve {
  points: RocPoint[];
  auc: number | null;
  positives: number;
  negatives: number;
}

const finite = (values: readonly (number | null | undefined)[]): number[] =>
  values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));

/** P(positive > negative) + ½·P(tie), by ranks in O(n log n); null when a class is empty. */
export function auc(
  positives: readonly (number | null | undefined)[],
  negatives: readonly (number | null | undefined)[],
): number | null {
  const pos = finite(positives);
  const neg = finite(negatives);
  if (pos.length === 0 || neg.length === 0) return null;
  const all = [...pos.map((v) => ({ v, p: true })), ...neg.map((v) => ({ v, p: false }))].sort((a, b) => a.v - b.v);
  // Midranks: a run of equal values shares the mean of its ranks (this is what makes ties count half).
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const midrank = (i + j) / 2 + 1;
    for (let m = i; m <= j; m++) if (all[m]!.p) rankSum += midrank;
    i = j + 1;
  }
  const u = rankSum - (pos.length * (pos.length + 1)) / 2;
  return u / (pos.length * neg.length);
}

/**
 * The ROC curve from (0,0) to (1,1): one point per distinct score, descending. Empty points and a
 * null AUC when a class is empty.
 */
export function rocCurve(
  positives: readonly (number | null | undefined)[],
  negatives: readonly (number | null | undefined)[],
): RocCurve {
  const pos = finite(positives);
  const neg = finite(negatives);
  const result: RocCurve = { points: [], auc: auc(pos, neg), positives: pos.length, negatives: neg.length };
  if (pos.length === 0 || neg.length === 0) return result;
  const thresholds = [...new Set([...pos, ...neg])].sort((a, b) => b - a);
  const points: RocPoint[] = [{ threshold: Infinity, fpr: 0, tpr: 0 }];
  const sortedPos = [...pos].sort((a, b) => b - a);
  const sortedNeg = [...neg].sort((a, b) => b - a);
  let ip = 0;
  let ineg = 0;
  for (const t of thresholds) {
    while (ip < sortedPos.length && sortedPos[ip]! >= t) ip++;
    while (ineg < sortedNeg.length && sortedNeg[ineg]! >= t) ineg++;
    points.push({ threshold: t, fpr: ineg / neg.length, tpr: ip / pos.length });
  }
  result.points = points;
  return result;
}

/** Trapezoid area under ROC points (equals `auc` for a curve from `rocCurve`). */
export function areaUnder(points: readonly RocPoint[]): number | null {
  if (points.length < 2) return null;
  let area = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    area += ((b.fpr - a.fpr) * (a.tpr + b.tpr)) / 2;
  }
  return area;
}
