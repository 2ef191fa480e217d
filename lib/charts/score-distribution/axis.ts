// ---------------------------------------------------------------------------------------------
// Axis: domain and ticks

/** A "nice" step (1, 2 or 5 × 10^n) at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const exp = Math.floor(Math.log10(raw));
  const base = 10 ** exp;
  const f = raw / base;
  const nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nf * base;
}

function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

const TARGET_TICKS = 8;

/**
 * A padded domain around `[lo, hi]`, rounded outward to nice ticks. Cosines are clamped to [-1, 1].
 */
export function niceDomain(lo: number, hi: number, bounded: boolean): { domain: [number, number]; ticks: number[] } {
  let a = lo;
  let b = hi;
  const span = b - a;
  const magnitude = Math.max(Math.abs(a), Math.abs(b));
  const pad = span > 0 ? span * 0.06 : bounded ? 0.05 : Math.max(magnitude * 0.1, 0.05);
  a -= pad;
  b += pad;
  if (bounded) {
    a = Math.max(a, -1);
    b = Math.min(b, 1);
  }
  const step = niceStep((b - a) / TARGET_TICKS);
  const digits = decimalsOf(step);
  const fix = (v: number): number => Number(v.toFixed(Math.min(digits + 2, 20)));
  const i0 = Math.floor(a / step + 1e-9);
  const i1 = Math.ceil(b / step - 1e-9);
  let dLo = fix(i0 * step);
  let dHi = fix(i1 * step);
  if (bounded) {
    dLo = Math.max(dLo, -1);
    dHi = Math.min(dHi, 1);
  }
  const ticks: number[] = [];
  for (let i = i0; i <= i1; i++) {
    const t = fix(i * step);
    if (t >= dLo - 1e-12 && t <= dHi + 1e-12) ticks.push(t);
  }
  return { domain: [dLo, dHi], ticks };
}
