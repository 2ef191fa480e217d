import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { lockFilePath } from "@/lib/db/server/pglite-lock";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * lib/db/shutdown.ts, in real processes: a child opens the database through lib/db, is sent a
 * signal, and the data directory tells whether PGlite was closed before the process ended.
 */
const root = path.resolve(__dirname, "../..");
const child = path.join(__dirname, "fixtures", "shutdown-child.ts");

interface Stopped {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the child, waits for its "ready", sends `signal`, and waits for it to end. */
async function runAndStop(mode: string, signal: NodeJS.Signals, env: Record<string, string>): Promise<Stopped> {
  const proc = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", child, mode], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("ready")) resolve();
    });
    void exited.then((code) => reject(new Error(`the child ended (${code}) before it was ready: ${stderr}`)));
  });
  proc.kill(signal);
  return { code: await exited, stdout, stderr };
}

/**
 * PostgreSQL's cluster state from `global/pg_control` (ControlFileData in
 * src/include/catalog/pg_control.h: system_identifier u64, pg_control_version u32,
 * catalog_version_no u32, then `state`). Written "shut down" by a clean close only; an open
 * database, or one whose process ended without closing it, reads "in production".
 */
function clusterState(dataDir: string): string {
  const control = fs.readFileSync(path.join(dataDir, "global", "pg_control"));
  // The layout above is PostgreSQL 17's (PGlite 0.3); a new major version must be checked again.
  expect(control.readUInt32LE(8)).toBe(1700);
  const states = [
    "starting up",
    "shut down",
    "shut down in recovery",
    "shutting down",
    "in crash recovery",
    "in archive recovery",
    "in production",
  ];
  return states[control.readInt32LE(16)] ?? `unknown (${control.readInt32LE(16)})`;
}

async function probeNotes(config: Parameters<typeof openDatabase>[0]): Promise<string[]> {
  const db = await openDatabase(config);
  try {
    const rows = await db.withSession((s) => s.query<{ note: string }>("SELECT note FROM shutdown_probe"));
    return rows.map((r) => r.note);
  } finally {
    await db.close();
  }
}

describe("closing the database on shutdown (PGlite)", () => {
  let scratch: string;
  let template: string;

  beforeAll(async () => {
    // Migrated once here; each child starts from a copy, so none pays for the migrations.
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-shutdown-"));
    template = path.join(scratch, "template");
    const db = await openDatabase({ kind: "pglite", dataDir: template });
    await migrate(db);
    await db.close();
  });

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  function copy(name: string): string {
    const dataDir = path.join(scratch, name);
    fs.cpSync(template, dataDir, { recursive: true });
    return dataDir;
  }

  it("under a Next-like SIGTERM handler: the request in flight finishes, then the database closes, then exit 143", async () => {
    const dataDir = copy("next-like");
    const stopped = await runAndStop("next-like", "SIGTERM", { PGLITE_DATA_DIR: dataDir });
    expect(stopped.stderr).toBe("");
    expect(stopped.code).toBe(143);
    expect(clusterState(dataDir)).toBe("shut down");
    expect(fs.existsSync(lockFilePath(dataDir))).toBe(false);
    expect(await probeNotes({ kind: "pglite", dataDir })).toEqual(["written after the signal"]);
  });

  it("with no other handler: the signal is not swallowed — closed, then exit 128 + its number", async () => {
    const dataDir = copy("alone");
    const stopped = await runAndStop("alone", "SIGINT", { PGLITE_DATA_DIR: dataDir });
    expect(stopped.stderr).toBe("");
    expect(stopped.code).toBe(130);
    expect(clusterState(dataDir)).toBe("shut down");
    expect(fs.existsSync(lockFilePath(dataDir))).toBe(false);
  });

  it("control: without the shutdown handling the same exit leaves the database not shut down", async () => {
    const dataDir = copy("unhandled");
    const stopped = await runAndStop("unhandled-next-like", "SIGTERM", { PGLITE_DATA_DIR: dataDir });
    expect(stopped.code).toBe(143);
    expect(clusterState(dataDir)).toBe("in production");
  });
});

describe("closing the database on shutdown (PostgreSQL)", () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await scratchDatabase("postgresql");
  });
  afterAll(() => scratch.drop());

  it("under a Next-like SIGTERM handler: the request in flight finishes before the pool ends, then exit 143", async () => {
    if (scratch.config.kind !== "postgresql") throw new Error("expected PostgreSQL");
    const stopped = await runAndStop("next-like", "SIGTERM", { DATABASE_URL: scratch.config.url });
    expect(stopped.stderr).toBe("");
    expect(stopped.code).toBe(143);
    expect(await probeNotes(scratch.config)).toEqual(["written after the signal"]);
  });

  it("a close that never ends does not hang the shutdown: it gives up after its timeout and exits with Next's code", async () => {
    if (scratch.config.kind !== "postgresql") throw new Error("expected PostgreSQL");
    const stopped = await runAndStop("stuck-next-like", "SIGTERM", { DATABASE_URL: scratch.config.url });
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toContain("the database did not close within 0.3 s");
  });
});
