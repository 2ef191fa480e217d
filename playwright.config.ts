import fs from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download cannot work on
 * this network). CHROMIUM_PATH overrides it; set it empty on a laptop to use Playwright's
 * bundled browser. Tests run against the production build (`npm run build`) on throw-away
 * databases: every spec on PGlite, and the specs tagged @postgres also on PostgreSQL.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const PGLITE_PORT = Number(process.env.E2E_PORT ?? 3210);
const POSTGRES_PORT = PGLITE_PORT + 1;

const server = (kind: "pglite" | "postgresql", port: number) => ({
  command: `node --import tsx e2e/support/serve.ts ${kind} ${port}`,
  // serve.ts removes its throw-away database when it gets SIGTERM; a SIGKILL would leak it.
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
  url: `http://127.0.0.1:${port}/api/health`,
  reuseExistingServer: !process.env.CI,
  timeout: 120_000,
  stdout: "pipe" as const,
  stderr: "pipe" as const,
});

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath || undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "pglite", use: { baseURL: `http://127.0.0.1:${PGLITE_PORT}` } },
    { name: "postgresql", use: { baseURL: `http://127.0.0.1:${POSTGRES_PORT}` }, grep: /@postgres/ },
  ],
  webServer: [server("pglite", PGLITE_PORT), server("postgresql", POSTGRES_PORT)],
});
