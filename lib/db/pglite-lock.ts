import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSetupError } from "./config";

/**
 * PGlite is single-process: two processes writing one data directory corrupt it. PGlite itself
 * does not guard against that, so the owning process keeps a lock file beside the data and every
 * other process refuses to open the directory while the owner is alive.
 */
const LOCK_NAME = "recall-inspector.lock";

interface LockRecord {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
}

const held = new Map<string, string>();

export function lockFilePath(dataDir: string): string {
  // Beside the data directory rather than inside it: PGlite owns the directory's contents.
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.${LOCK_NAME}`);
}

/** Takes the lock for `dataDir`, or throws a DatabaseSetupError naming the process that holds it. */
export function acquirePgliteLock(dataDir: string): void {
  const file = lockFilePath(dataDir);
  if (held.has(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });

  const record: LockRecord = {
    pid: process.pid,
    hostname: os.hostname(),
    command: process.argv.slice(1).map((a) => path.basename(a)).join(" ").slice(0, 200),
    startedAt: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, JSON.stringify(record));
      fs.closeSync(fd);
      held.set(file, dataDir);
      registerRelease();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readLock(file);
    if (owner && owner.pid === process.pid && owner.hostname === record.hostname) {
      // Our own lock, e.g. left by a module instance that a dev-server reload discarded.
      held.set(file, dataDir);
      registerRelease();
      return;
    }
    if (owner && isAlive(owner)) {
      throw new DatabaseSetupError(
        `The embedded database at ${dataDir} is in use by process ${owner.pid} (${owner.command || "unknown command"}, started ${owner.startedAt}). ` +
          "Stop that process, set PGLITE_DATA_DIR to another directory, or use DATABASE_URL for a database several processes can share.",
        "pglite_locked",
      );
    }
    // The owner is gone (crash, kill -9): the lock is stale, take it over.
    fs.rmSync(file, { force: true });
  }
  throw new DatabaseSetupError(
    `Could not lock the embedded database at ${dataDir}: another process keeps re-creating ${file}.`,
    "pglite_locked",
  );
}

export function releasePgliteLock(dataDir: string): void {
  const file = lockFilePath(dataDir);
  if (!held.delete(file)) return;
  const owner = readLock(file);
  if (owner?.pid === process.pid) fs.rmSync(file, { force: true });
}

function readLock(file: string): LockRecord | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockRecord>;
    if (typeof parsed.pid !== "number") return null;
    return {
      pid: parsed.pid,
      hostname: String(parsed.hostname ?? ""),
      command: String(parsed.command ?? ""),
      startedAt: String(parsed.startedAt ?? "unknown time"),
    };
  } catch {
    return null;
  }
}

function isAlive(owner: LockRecord): boolean {
  // A lock written on another host (a shared volume) cannot be checked; treat it as held.
  if (owner.hostname !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let releaseRegistered = false;
function registerRelease(): void {
  if (releaseRegistered) return;
  releaseRegistered = true;
  process.once("exit", () => {
    for (const dataDir of [...held.values()]) releasePgliteLock(dataDir);
  });
}
