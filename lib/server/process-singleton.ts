/**
 * One value per process, made once and shared (docs/ARCHITECTURE.md "One home per thing"): the
 * database, the embedded store, the embedder, the remote stores. Cached on globalThis under a
 * key, because Next's dev server reloads modules and its server bundles (instrumentation, route
 * handlers) each load their own copy of a module; a PGlite directory or a pool of embedding
 * workers must still be opened once. Server-side only.
 */
const slots = globalThis as unknown as Record<string, unknown>;

/** The value under `key`, made by `create` on first use. A `create` that throws caches nothing. */
export function processSingleton<T>(key: string, create: () => T): T {
  const name = `recallInspector:${key}`;
  if (!(name in slots)) slots[name] = create();
  return slots[name] as T;
}

/**
 * The promise under `key`, made by `create` on first use; a rejected promise is forgotten so a
 * later call tries again (a PostgreSQL server that comes up after the app).
 */
export function processSingletonAsync<T>(key: string, create: () => Promise<T>): Promise<T> {
  const name = `recallInspector:${key}`;
  if (!(name in slots)) {
    slots[name] = create().catch((error: unknown) => {
      delete slots[name];
      throw error;
    });
  }
  return slots[name] as Promise<T>;
}

/**
 * Removes the value under `key` and returns it (undefined when none was made): what closes a
 * singleton (the database at shutdown) takes it, so a later call makes a new one.
 */
export function takeProcessSingleton<T>(key: string): T | undefined {
  const name = `recallInspector:${key}`;
  if (!(name in slots)) return undefined;
  const value = slots[name] as T;
  delete slots[name];
  return value;
}

/**
 * The value under `key` if one was made, without making it: for code that may use a singleton
 * but must not open it (the request proxy reads the database the server opened at start).
 */
export function peekProcessSingleton<T>(key: string): T | undefined {
  const name = `recallInspector:${key}`;
  return name in slots ? (slots[name] as T) : undefined;
}
