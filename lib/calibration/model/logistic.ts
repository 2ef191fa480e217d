/**
 * L2-regularised logistic regression fitted by Newton's method (IRLS) on standardised features:
 * a handful of features and a few hundred examples, so the (d+1)² Hessian is solved directly.
 * Pure and deterministic (lib/calibration/README.md "Threshold profiles"). The intercept is not
 * penalised; the penalty keeps a fit on separable data finite instead of running off to ±∞.
 */

export interface LogisticModel {
  /** Per feature: the training mean and standard deviation used to standardise it. */
  mean: number[];
  scale: number[];
  /** Weights on the standardised features, and the intercept. */
  weights: number[];
  intercept: number;
}

export interface LogisticOptions {
  /** L2 penalty on the standardised weights (per example: the penalty is l2 · ‖w‖² / 2). */
  l2?: number;
  iterations?: number;
  /** Example weights (e.g. to balance the classes); 1 each by default. */
  sampleWeights?: readonly number[];
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and SPD here). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]!;
    if (Math.abs(pivot) < 1e-12) continue;
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / pivot;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = Math.abs(m[r]![r]!) < 1e-12 ? 0 : s / m[r]![r]!;
  }
  return x;
}

/** Fits P(y = 1 | x). Throws when the rows are empty or ragged. */
export function fitLogistic(
  x: readonly (readonly number[])[],
  y: readonly boolean[],
  options: LogisticOptions = {},
): LogisticModel {
  if (x.length === 0 || x.length !== y.length) throw new Error("fitLogistic needs as many labels as rows, at least one");
  const d = x[0]!.length;
  if (x.some((row) => row.length !== d)) throw new Error("fitLogistic needs rows of one length");
  const l2 = options.l2 ?? 1;
  const sw = options.sampleWeights ?? x.map(() => 1);
  const n = x.length;
  const mean = Array.from({ length: d }, (_, j) => x.reduce((s, r) => s + r[j]!, 0) / n);
  const scale = Array.from({ length: d }, (_, j) => {
    const v = x.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / n;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const z = x.map((r) => r.map((v, j) => (v - mean[j]!) / scale[j]!));
  const totalWeight = sw.reduce((s, w) => s + w, 0);
  // theta = [intercept, w1..wd]
  let theta = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < (options.iterations ?? 50); it++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const row = [1, ...z[i]!];
      const p = sigmoid(row.reduce((s, v, j) => s + v * theta[j]!, 0));
      const w = sw[i]!;
      const r = (p - (y[i] ? 1 : 0)) * w;
      const h = Math.max(p * (1 - p), 1e-10) * w;
      for (let a = 0; a <= d; a++) {
        grad[a]! += r * row[a]!;
        for (let b = 0; b <= d; b++) hess[a]![b]! += h * row[a]! * row[b]!;
      }
    }
    for (let a = 1; a <= d; a++) {
      grad[a]! += l2 * (totalWeight / n) * theta[a]!;
      hess[a]![a]! += l2 * (totalWeight / n);
    }
    const step = solve(hess, grad);
    theta = theta.map((t, j) => t - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { mean, scale, weights: theta.slice(1), intercept: theta[0]! };
}

/** P(y = 1 | x) under the model. */
export function predictLogistic(model: LogisticModel, x: readonly number[]): number {
  let s = model.intercept;
  for (let j = 0; j < model.weights.length; j++) s += model.weights[j]! * ((x[j]! - model.mean[j]!) / model.scale[j]!);
  return sigmoid(s);
}
