import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseSetupError, resolveDatabaseConfig } from "@/lib/db/server/config";
import { openDatabase } from "@/lib/db/server/connection";
import { acquirePgliteLock, lockFilePath, ownerState, releasePgliteLock, STALE_AFTER_MS } from "@/lib/db/server/pglite-lock";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

/** Setup errors are for people: one line, no stack, says what to do. */
function expectOneLine(error: unknown, pattern: RegExp) {
  expect(error).toBeInstanceOf(DatabaseSetupError);
  const message = (error as Error).message;
  expect(message).toMatch(pattern);
  expect(message).not.toContain("\n");
}

describe("resolveDatabaseConfig", () => {
  it("defaults to an embedded PGlite directory under the project", () => {
    const config = resolveDatabaseConfig({});
    expect(config).toEqual({ kind: "pglite", dataDir: path.resolve(".data/pglite") });
  });

  it("honours PGLITE_DATA_DIR", () => {
    expect(resolveDatabaseConfig({ PGLITE_DATA_DIR: "/tmp/x" })).toEqual({ kind: "pglite", dataDir: "/tmp/x" });
  });

  it("takes postgres:// and postgresql:// URLs and hides the password in messages", () => {
    const config = resolveDatabaseConfig({ DATABASE_URL: "postgres://me:secret@db:5432/recalls" });
    expect(config.kind).toBe("postgresql");
    expect(config.kind === "postgresql" && config.display).toBe("postgres://me:***@db:5432/recalls");
    expect(resolveDatabaseConfig({ DATABASE_URL: "postgresql://db/x" }).kind).toBe("postgresql");
  });

  it.each([
    ["mysql://root@localhost/db", /scheme "mysql"/],
    ["file:./dev.db", /scheme "file"/],
    ["not a url", /not a valid URL/],
  ])("rejects DATABASE_URL=%s with one clear line", (url, pattern) => {
    let caught: unknown;
    try {
      resolveDatabaseConfig({ DATABASE_URL: url });
    } catch (error) {
      caught = error;
    }
    expectOneLine(caught, pattern);
  });
});

describe("openDatabase failures", () => {
  it("names an unreachable PostgreSQL server in one line", async () => {
    const error = await openDatabase({
      kind: "postgresql",
      url: "postgresql://nobody:pw@127.0.0.1:1/none",
      display: "postgresql://nobody:***@127.0.0.1:1/none",
    }).catch((e: unknown) => e);
    expectOneLine(error, /Cannot reach PostgreSQL at postgresql:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/);
    expect((error as Error).message).not.toContain(":pw@");
  });
});

describe("PGlite directory lock", () => {
  const dirs: string[] = [];
  const children: ReturnType<typeof spawn>[] = [];
  function tempDataDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-lock-"));
    dirs.push(dir);
    return path.join(dir, "data");
  }
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a directory whose lock belongs to a live process, naming it", () => {
    const dataDir = tempDataDir();
    const owner = spawn("sleep", ["30"]);
    children.push(owner);
    fs.writeFileSync(
      lockFilePath(dataDir),
      JSON.stringify({ pid: owner.pid, hostname: os.hostname(), command: "next start", startedAt: "2026-11-30T00:00:00Z" }),
    );
    let caught: unknown;
    try {
      acquirePgliteLock(dataDir);
    } catch (error) {
      caught = error;
    }
    expectOneLine(caught, new RegExp(`in use by process ${owner.pid} \\(next start.*PGLITE_DATA_DIR`));
  });

  it("takes over a stale lock left by a process that is gone", async () => {
    const dataDir = tempDataDir();
    const gone = spawn("true");
    await new Promise((resolve) => gone.once("exit", resolve));
    fs.writeFileSync(
      lockFilePath(dataDir),
      JSON.stringify({ pid: gone.pid, hostname: os.hostname(), command: "crashed", startedAt: "x" }),
    );
    acquirePgliteLock(dataDir);
    expect(JSON.parse(fs.readFileSync(lockFilePath(dataDir), "utf8")).pid).toBe(process.pid);
    releasePgliteLock(dataDir);
    expect(fs.existsSync(lockFilePath(dataDir))).toBe(false);
  });

  it("names the lock file in the refusal and refuses another host's lock while its heartbeat is fresh", () => {
    const dataDir = tempDataDir();
    const fresh = new Date().toISOString();
    fs.writeFileSync(
      lockFilePath(dataDir),
      JSON.stringify({ pid: 4242, hostname: "other-host", command: "next start", startedAt: fresh, heartbeatAt: fresh }),
    );
    let caught: unknown;
    try {
      acquirePgliteLock(dataDir);
    } catch (error) {
      caught = error;
    }
    expectOneLine(caught, /in use by process 4242 on host other-host/);
    expect((caught as Error).message).toContain(lockFilePath(dataDir));
  });

  it("takes over another host's lock whose heartbeat stopped, and a reused pid's lock", () => {
    const old = new Date(Date.now() - STALE_AFTER_MS - 5_000).toISOString();
    for (const owner of [
      { pid: 4242, hostname: "other-host", command: "next start", startedAt: old, heartbeatAt: old },
      // This process's parent is alive, but it never wrote a heartbeat this old: the pid was reused.
      { pid: process.ppid, hostname: os.hostname(), command: "next start", startedAt: old, heartbeatAt: old },
    ]) {
      const dataDir = tempDataDir();
      fs.writeFileSync(lockFilePath(dataDir), JSON.stringify(owner));
      acquirePgliteLock(dataDir);
      const taken = JSON.parse(fs.readFileSync(lockFilePath(dataDir), "utf8"));
      expect(taken.pid).toBe(process.pid);
      expect(Date.now() - Date.parse(taken.heartbeatAt)).toBeLessThan(STALE_AFTER_MS);
      releasePgliteLock(dataDir);
    }
  });

  it("keeps another host's lock without a heartbeat (nothing proves its owner gone)", () => {
    expect(ownerState({ pid: 1, hostname: "other-host", command: "", startedAt: "x", heartbeatAt: null })).toBe("alive");
    const now = Date.parse("2026-12-01T10:00:00Z");
    const owner = { pid: 1, hostname: "other-host", command: "", startedAt: "x", heartbeatAt: "2026-12-01T09:59:45Z" };
    expect(ownerState(owner, now)).toBe("alive");
    expect(ownerState(owner, now + STALE_AFTER_MS)).toBe("no heartbeat");
  });

  it("stops another process (npm run db:migrate) from opening a directory this process holds", async () => {
    const dataDir = tempDataDir();
    const db = await openDatabase({ kind: "pglite", dataDir });
    try {
      const result = await run("npx", ["tsx", "scripts/db-migrate.ts"], {
        cwd: root,
        env: { ...process.env, PGLITE_DATA_DIR: dataDir, DATABASE_URL: "" },
      }).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^error: The embedded database at .* is in use by process ${process.pid} `));
    } finally {
      await db.close();
    }
    // A child tsx process takes a while on a loaded machine.
  }, 120_000);
});
