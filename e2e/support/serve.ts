/**
 * Starts the production build for an end-to-end run on a fresh, throw-away database:
 *   tsx e2e/support/serve.ts pglite <port>       — a new PGlite directory
 *   tsx e2e/support/serve.ts postgresql <port>   — a new PostgreSQL server on loopback
 * Everything it made is removed when Playwright stops it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestPostgres } from "../../tests/support/postgres-server";

async function main() {
  const [kind, port] = process.argv.slice(2);
  if ((kind !== "pglite" && kind !== "postgresql") || !port) {
    throw new Error("usage: tsx e2e/support/serve.ts <pglite|postgresql> <port>");
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `recall-inspector-e2e-${kind}-`));
  const postgres = kind === "postgresql" ? await startTestPostgres() : null;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: port, PGLITE_DATA_DIR: path.join(scratch, "pglite") };
  if (postgres) env.DATABASE_URL = postgres.adminUrl;
  else delete env.DATABASE_URL;

  const root = path.resolve(__dirname, "../..");
  const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", port, "-H", "127.0.0.1"], {
    cwd: root,
    env,
    stdio: "inherit",
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await postgres?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
    process.exit(code);
  };
  server.once("exit", (code) => void stop(code ?? 1));
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void stop(0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
