import { defineConfig } from "@playwright/test";
import fs from "node:fs";

/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download cannot work on
 * this network). CHROMIUM_PATH overrides it; set it empty on a laptop to use Playwright's
 * bundled browser. Tests run against the production build (`npm run build`) on throw-away
 * databases: every spec on PGlite, and the specs tagged @postgres also on PostgreSQL.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const PGLITE_PORT = Number(process.env.E2E_PORT ?? 3210);
const POSTGRES_PORT = PGLITE_PORT + 1;
// Loopback test doubles for the paid/external services (docs/ARCHITECTURE.md "Tests"): the real clients talk to them.
const MEMORY_SERVICE_PORT = PGLITE_PORT + 2;
const LLM_PORT = PGLITE_PORT + 3;
// Sign-in on (e2e/security.spec.ts): a third app server with AUTH_PASSWORD, and another origin
// for the cross-site attacks.
const AUTH_PORT = PGLITE_PORT + 4;
const OTHER_ORIGIN_PORT = PGLITE_PORT + 5;
/** The e2e spec's copy lives in e2e/security.spec.ts (a spec cannot import this config). */
const E2E_AUTH_PASSWORD = "e2e team password, long enough";

// The fake service's defaults (tests/support/fake-memory-service.ts; importing it here would load
// an ES module into Playwright's CommonJS config).
const FAKE_API_KEY = "kagura_fake-test-key-0123456789abcdefghijklmnopq";
const FAKE_CONTEXT_ID = "7d4b8c2e-1f3a-4e5b-9c6d-0a1b2c3d4e5f";

/** What the app under test is configured with: two remote stores (one with a wrong key) and the LLM selector. */
export const E2E_APP_ENV = {
  REMOTE_STORES: JSON.stringify([
    {
      name: "fake",
      label: "Fake memory service",
      base_url: `http://127.0.0.1:${MEMORY_SERVICE_PORT}`,
      api_key: FAKE_API_KEY,
      context_id: FAKE_CONTEXT_ID,
      timeout_ms: 3000,
    },
    {
      name: "fake-badkey",
      label: "Fake service (wrong key)",
      base_url: `http://127.0.0.1:${MEMORY_SERVICE_PORT}`,
      api_key: "kagura_not-the-right-key",
      context_id: FAKE_CONTEXT_ID,
      timeout_ms: 3000,
    },
  ]),
  SELECTOR_LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
  SELECTOR_LLM_MODEL: "fake-selector-model",
  SELECTOR_LLM_TIMEOUT_MS: "1500",
};

const double = (script: string, port: number, health: string) => ({
  command: `node --import tsx ${script} --port ${port}`,
  url: `http://127.0.0.1:${port}${health}`,
  reuseExistingServer: !process.env.CI,
  timeout: 60_000,
  gracefulShutdown: { signal: "SIGTERM" as const, timeout: 5_000 },
});

const server = (kind: "pglite" | "postgresql", port: number, env: Record<string, string> = {}) => ({
  command: `node --import tsx e2e/support/serve.ts ${kind} ${port}`,
  env: { ...E2E_APP_ENV, ...env },
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
  webServer: [
    double("tests/support/fake-memory-service.ts", MEMORY_SERVICE_PORT, "/__fake/health"),
    double("tests/support/fake-llm.ts", LLM_PORT, "/health"),
    server("pglite", PGLITE_PORT),
    server("postgresql", POSTGRES_PORT),
    server("pglite", AUTH_PORT, { AUTH_PASSWORD: E2E_AUTH_PASSWORD, DEMO_CORPUS: "off" }),
    double("e2e/support/other-origin.ts", OTHER_ORIGIN_PORT, "/health"),
  ],
});
