/**
 * Exact floating-point helpers that reproduce the reference service's Python arithmetic bit for bit.
 *
 * - `fsum`   = Python `math.fsum`: the exactly rounded sum.
 * - `fmean`  = Python `statistics.fmean`: `fsum(xs) / len(xs)`.
 * - `pstdev` = Python `statistics.pstdev` (3.11+): the correctly rounded square root of the
 *              exact population variance.
 * - `round3` = Python `round(x, 3)`; `format2` = Python `"{:.2f}".format(x)`: both round the
 *              exact binary value of the double half-to-even.
 *
 * All of them work on the exact dyadic value of each double using BigInt, so they are exact
 * (no "close enough" compensated sums) and independent of input order. This is stronger than the
 * Neumaier sum the spec suggests: a Neumaier sum can still differ from `fsum` in the last ulp,
 * and a last-ulp difference in the background mean or std can flip a `>=` at a band edge.
 *
 * Inputs must be finite; callers validate first.
 */

const view = new DataView(new ArrayBuffer(8));

interface Decomposed {
  negative: boolean;
  /** Non-negative integer significand. */
  mantissa: bigint;
  /** The value is `±mantissa · 2^exponent`. */
  exponent: number;
}

/** Splits a finite double into sign, integer significand and binary exponent (exactly). */
function decompose(x: number): Decomposed {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074; // zero or subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { negative, mantissa, exponent };
}

/** 2^k as a double, exact for -1074 ≤ k ≤ 1023. */
function pow2(k: number): number {
  if (k > 1023) return Infinity;
  if (k < -1074) return 0;
  if (k >= -1022) {
    view.setUint32(0, (k + 1023) << 20);
    view.setUint32(4, 0);
  } else {
    const bit = k + 1074; // 0..51: position of the single set bit in the subnormal significand
    if (bit >= 32) {
      view.setUint32(0, 1 << (bit - 32));
      view.setUint32(4, 0);
    } else {
      view.setUint32(0, 0);
      view.setUint32(4, 2 ** bit);
    }
  }
  return view.getFloat64(0);
}

/** Number of significant bits of a non-negative BigInt (0 for 0). */
export function bitLength(n: bigint): number {
  if (n === 0n) return 0;
  const hex = n.toString(16);
  const lead = parseInt(hex.charAt(0), 16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(lead));
}

/**
 * The double nearest to `(n + δ) · 2^e` (ties to even), where δ = 0 when `sticky` is false and
 * 0 < δ < 1 otherwise. With `sticky`, `n` must carry at least two bits below the rounding point,
 * which every caller here guarantees (it passes ≥ 55 significant bits).
 */
function roundScaled(n: bigint, e: number, sticky: boolean): number {
  if (n === 0n) return 0;
  const bl = bitLength(n);
  if (bl - 1 + e > 1023) return Infinity;
  const drop = Math.max(bl - 53, -1074 - e);
  if (drop <= 0) return Number(n) * pow2(e); // exactly representable
  const big = BigInt(drop);
  let kept = n >> big;
  const rem = n & ((1n << big) - 1n);
  const half = 1n << (big - 1n);
  if (rem > half || (rem === half && (sticky || (kept & 1n) === 1n))) kept += 1n;
  const outExp = e + drop;
  if (bitLength(kept) - 1 + outExp > 1023) return Infinity;
  return Number(kept) * pow2(outExp);
}

/** The double nearest to the rational `num / den` (num ≥ 0, den > 0), ties to even. */
export function ratioToDouble(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = 55 - (bitLength(num) - bitLength(den)); // quotient gets ≥ 55 bits
  const n = shift >= 0 ? num << BigInt(shift) : num;
  const d = shift >= 0 ? den : den << BigInt(-shift);
  return roundScaled(n / d, -shift, n % d !== 0n);
}

/** floor(sqrt(n)) for n ≥ 0. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((bitLength(n) + 1) >> 1); // ≥ sqrt(n)
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The double nearest to `sqrt(num / den) · 2^e2` (num ≥ 0, den > 0), ties to even. */
function sqrtRatioToDouble(num: bigint, den: bigint, e2: number): number {
  if (num === 0n) return 0;
  // Scale by 4^s so that the integer square root has ≥ 56 significant bits.
  const s = Math.ceil((112 - (bitLength(num) - bitLength(den))) / 2);
  const n = s >= 0 ? num << BigInt(2 * s) : num;
  const d = s >= 0 ? den : den << BigInt(-2 * s);
  const t = n / d;
  const r = isqrt(t);
  const inexact = n % d !== 0n || r * r !== t;
  return roundScaled(r, e2 - s, inexact);
}

interface ScaledValues {
  /** Each value is `ints[i] · 2^exponent`, exactly. */
  ints: bigint[];
  exponent: number;
}

function toCommonScale(values: readonly number[]): ScaledValues {
  const parts = values.map(decompose);
  let exponent = Infinity;
  for (const p of parts) if (p.mantissa !== 0n && p.exponent < exponent) exponent = p.exponent;
  if (exponent === Infinity) return { ints: parts.map(() => 0n), exponent: 0 };
  const ints = parts.map((p) => {
    const v = p.mantissa << BigInt(p.exponent - exponent);
    return p.negative ? -v : v;
  });
  return { ints, exponent };
}

function dyadicToDouble(n: bigint, e: number): number {
  if (n === 0n) return 0; // Python's fsum returns +0.0 for a zero total
  return n < 0n ? -roundScaled(-n, e, false) : roundScaled(n, e, false);
}

/** Python `math.fsum`: the exactly rounded sum of finite doubles. */
export function fsum(values: readonly number[]): number {
  const { ints, exponent } = toCommonScale(values);
  let total = 0n;
  for (const v of ints) total += v;
  return dyadicToDouble(total, exponent);
}

/** Python `statistics.fmean` (unweighted): `fsum(values) / len(values)`. Requires ≥ 1 value. */
export function fmean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("fmean requires at least one value");
  return fsum(values) / values.length;
}

/**
 * Python `statistics.pstdev` (3.11+): population standard deviation, the correctly rounded
 * square root of the exact variance `(n·Σx² − (Σx)²) / n²`. Requires ≥ 1 value.
 */
export function pstdev(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) throw new RangeError("pstdev requires at least one value");
  const { ints, exponent } = toCommonScale(values);
  let sx = 0n;
  let sxx = 0n;
  for (const v of ints) {
    sx += v;
    sxx += v * v;
  }
  const bn = BigInt(n);
  const numerator = bn * sxx - sx * sx; // = n² · variance / 4^exponent, never negative
  return sqrtRatioToDouble(numerator, bn * bn, exponent);
}

interface DecimalRounding {
  negative: boolean;
  /** |x| rounded half-to-even to `digits` decimals, as an integer count of 10^-digits. */
  units: bigint;
}

function roundDecimalHalfEven(x: number, digits: number): DecimalRounding {
  const { negative, mantissa, exponent } = decompose(x);
  const scale = 10n ** BigInt(digits);
  if (exponent >= 0) return { negative, units: (mantissa << BigInt(exponent)) * scale };
  const num = mantissa * scale;
  const den = 1n << BigInt(-exponent);
  let units = num / den;
  const twice = (num % den) * 2n;
  if (twice > den || (twice === den && (units & 1n) === 1n)) units += 1n;
  return { negative, units };
}

function assertFinite(x: number, fn: string): void {
  if (!Number.isFinite(x)) throw new RangeError(`${fn} needs a finite number, got ${String(x)}`);
}

/**
 * Python `round(x, digits)` for a float: the exact binary value rounded half-to-even to
 * `digits` decimals, then converted back to the nearest double. Keeps the sign of zero.
 */
export function roundHalfEven(x: number, digits: number): number {
  assertFinite(x, "roundHalfEven");
  if (!Number.isInteger(digits) || digits < 0 || digits > 4) throw new RangeError("roundHalfEven supports 0–4 digits");
  if (Number.isInteger(x)) return x; // includes every |x| ≥ 2^52 (and keeps -0)
  const { negative, units } = roundDecimalHalfEven(x, digits);
  // |x| < 2^52, so `units` has at most 20 significant digits, where ECMAScript's string-to-number
  // conversion is exactly rounded: this is the nearest double to the decimal, as in CPython.
  const magnitude = Number(`${units.toString()}e-${digits}`);
  return negative ? -magnitude : magnitude;
}

/** Python `round(x, 3)`. */
export function round3(x: number): number {
  return roundHalfEven(x, 3);
}

/**
 * Python `format(x, f".{digits}f")`: fixed-point text of the exact binary value rounded
 * half-to-even. Negative values (and -0.0) keep their minus sign ("-0.00"), as in Python.
 * Unlike `toFixed` it never switches to exponent notation.
 */
export function formatFixed(x: number, digits: number): string {
  assertFinite(x, "formatFixed");
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new RangeError("formatFixed supports 0–20 digits");
  const { negative, units } = roundDecimalHalfEven(x, digits);
  const text = units.toString().padStart(digits + 1, "0");
  const intPart = text.slice(0, text.length - digits);
  const fracPart = digits > 0 ? `.${text.slice(text.length - digits)}` : "";
  return `${negative ? "-" : ""}${intPart}${fracPart}`;
}

/** Python `"{:.2f}".format(x)`. */
export function format2(x: number): string {
  return formatFixed(x, 2);
}
