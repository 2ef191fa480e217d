/**
 * `instanceof` for errors that cross Next's server bundles. Instrumentation and each route are
 * bundled apart, so a store created in one bundle (and cached on globalThis) throws errors whose
 * class is another bundle's copy, and a plain `instanceof` says no. A class made with
 * `crossBundleInstance(name)` answers `instanceof` by a global brand instead.
 */
export function crossBundleInstance(name: string) {
  const brand = Symbol.for(`recall-inspector.error.${name}`);
  return {
    brand,
    hasInstance: (value: unknown): boolean =>
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  };
}
