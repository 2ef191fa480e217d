/**
 * `instanceof` for errors that cross Next's server bundles. Instrumentation and each route are
 * bundled apart, so a store created in one bundle (and cached on globalThis) throws errors whose
 * class is another bundle's copy, and a plain `instanceof` says no. Errors extending
 * `CrossBundleError(name)` answer `instanceof` by a global brand instead.
 */
export function crossBundleInstance(name: string) {
  const brand = Symbol.for(`recall-inspector.error.${name}`);
  return {
    brand,
    hasInstance: (value: unknown): boolean =>
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  };
}

/** A base class for an error named `name` whose `instanceof` works across bundles. */
export function CrossBundleError(name: string) {
  const { brand, hasInstance } = crossBundleInstance(name);
  return class extends Error {
    override readonly name: string = name;
    constructor(message: string, options?: { cause?: unknown }) {
      super(message, options);
      (this as unknown as Record<symbol, boolean>)[brand] = true;
    }
    static override [Symbol.hasInstance](value: unknown): boolean {
      return hasInstance(value);
    }
  };
}
