/**
 * The one A/B convention of every compare page (two recalls, two evaluation runs): A is the
 * baseline — the older of the two — and B the change, the newer; every delta is B − A, so a
 * positive delta reads "B is higher". Pure and client-safe: the pages order what the URL names
 * with it (and send a reversed URL to its A/B order), the links that open a comparison build
 * their URL with it.
 */

/** What each compare page says under its title. `what` names the things compared ("run", "recall"). */
export function abConventionText(what: string): string {
  return `A = the baseline (the older ${what}), B = the change (the newer ${what}); deltas are B − A.`;
}

const time = (at: string | Date): number => (at instanceof Date ? at.getTime() : Date.parse(at));

/**
 * The two in A/B order: the older first. Equal times (or an unreadable one) keep the order given,
 * so a pair logged in the same millisecond does not swap back and forth.
 */
export function baselineFirst<T>(x: T, y: T, createdAt: (item: T) => string | Date): [T, T] {
  const tx = time(createdAt(x));
  const ty = time(createdAt(y));
  return tx > ty ? [y, x] : [x, y];
}

/**
 * The URL a compare page should be at when the one asked for names the newer as A: the same
 * path and parameters with `a` and `b` swapped. Null when the order already holds.
 */
export function canonicalCompareUrl(
  path: string,
  params: Readonly<Record<string, string | string[] | undefined>>,
  a: { id: string; created_at: string | Date },
  b: { id: string; created_at: string | Date },
): string | null {
  const [first] = baselineFirst(a, b, (s) => s.created_at);
  if (first === a) return null;
  // a and b first, as the links build it, then the page's other parameters (e.g. the metric).
  const ordered = new URLSearchParams([
    ["a", b.id],
    ["b", a.id],
  ]);
  for (const [key, value] of Object.entries(params)) {
    if (key === "a" || key === "b" || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) ordered.append(key, v);
  }
  return `${path}?${ordered.toString()}`;
}
