import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Two projects (docs/ARCHITECTURE.md "Tests"): `unit` — the pure tests beside the code, which
 * need no database and start none; `integration` — tests/, against real PGlite and a throw-away
 * PostgreSQL that the global setup starts once for the run. `npx vitest run` runs both;
 * `npm run test:unit` / `npm run test:integration` one each.
 */
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside Next's server bundles; tests are server code by definition.
      "server-only": path.resolve(import.meta.dirname, "tests/support/server-only-stub.ts"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "docs/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
        },
      },
    ],
  },
});
