/**
 * How a time range is read from the rollups: the whole rollup buckets inside it come from the
 * rollup, the slivers at either end (shorter than one rollup bucket) from the recalls
 * themselves, so any `from`/`to` is answered exactly. Pure.
 */

/** recall_rollup: 15 minutes, which divides every UTC offset in use (…:30, …:45 zones too). */
export const ROLLUP_STEP_MS = 15 * 60_000;
/** recall_memory_rollup: one hour (it only ever sums whole ranges, never buckets by zone). */
export const MEMORY_ROLLUP_STEP_MS = 60 * 60_000;

export interface Span {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
}

export interface RangeSplit {
  /** Whole rollup buckets, [from, to) on bucket boundaries; null when the range holds none. */
  whole: Span | null;
  /** What is left at either end, read from the recalls (zero, one or two spans). */
  edges: Span[];
}

/**
 * Splits [from, to) at the rollup's bucket boundaries (multiples of `stepMs` since the Unix
 * epoch, which is what `date_bin(step, t, '2000-01-01 00:00+00')` yields for steps that divide
 * a day). With `useRollup: false` the whole range is one edge (read from the recalls).
 */
export function splitRange(from: Date, to: Date, stepMs: number, useRollup = true): RangeSplit {
  const start = from.getTime();
  const end = to.getTime();
  if (!(start < end)) return { whole: null, edges: [] };
  if (!useRollup) return { whole: null, edges: [{ from, to }] };
  const a = Math.ceil(start / stepMs) * stepMs;
  const b = Math.floor(end / stepMs) * stepMs;
  if (a >= b) return { whole: null, edges: [{ from, to }] };
  const edges: Span[] = [];
  if (start < a) edges.push({ from, to: new Date(a) });
  if (b < end) edges.push({ from: new Date(b), to });
  return { whole: { from: new Date(a), to: new Date(b) }, edges };
}
