import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSetupError } from "./config";

/**
 * PGlite is single-process: two processes writing one data directory corrupt it. PGlite itself
 * does not guard against that, so the owning process keeps a lock file beside the data and every
 * other process refuses to open the directory while the owner is alive.
 *
 * The owner rewrites the file's `heartbeatAt` every `HEARTBEAT_MS`. A lock is taken over only
 * when its owner is provably gone: written on this host by a pid that no longer runs, or (a pid
 * that was reused by another program, or a lock from another host on a shared volume) when its
 * heartbeat is older than `STALE_AFTER_MS`. docs: README, "The embedded database's lock file".
 */
const LOCK_NAME = "recall-inspector.lock";
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 30_000;

interface LockRecord {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** Last sign of life; missing in locks written before the heartbeat existed. */
  heartbeatAt: string | null;
}

const held = new Map<string, string>();
const heartbeats = new Map<string, ReturnType<typeof setInterval>>();

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
    command: process.argv
      .slice(1)
      .map((a) => path.basename(a))
      .join(" ")
      .slice(0, 200),
    startedAt: new Date().toISOString(),
    heartbeatAt: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, JSON.stringify(record));
      fs.closeSync(fd);
      held.set(file, dataDir);
      startHeartbeat(file, record);
      registerRelease();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readLock(file);
    if (owner && owner.pid === process.pid && owner.hostname === record.hostname) {
      // Our own lock, e.g. left by a module instance that a dev-server reload discarded.
      held.set(file, dataDir);
      startHeartbeat(file, { ...record, startedAt: owner.startedAt });
      registerRelease();
      return;
    }
    const verdict = owner ? ownerState(owner) : "gone";
    if (owner && verdict === "alive") {
      const where = owner.hostname === record.hostname ? "" : ` on host ${owner.hostname}`;
      throw new DatabaseSetupError(
        `The embedded database at ${dataDir} is in use by process ${owner.pid}${where} (${owner.command || "unknown command"}, started ${owner.startedAt}, last heartbeat ${owner.heartbeatAt ?? "never"}); its lock file is ${file}. ` +
          "Stop that process, set PGLITE_DATA_DIR to another directory, or use DATABASE_URL for a database several processes can share. " +
          `A lock whose owner is gone is taken over by itself (a dead pid on this host, or no heartbeat for ${STALE_AFTER_MS / 1000} s).`,
        "pglite_locked",
      );
    }
    // The owner is gone (crash, kill -9, another host's process that stopped beating): take over.
    if (owner)
      console.warn(
        `Recall Inspector: taking over the stale lock ${file} of process ${owner.pid} on ${owner.hostname} (${verdict}).`,
      );
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
  const beat = heartbeats.get(file);
  if (beat) clearInterval(beat);
  heartbeats.delete(file);
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
      heartbeatAt: typeof parsed.heartbeatAt === "string" ? parsed.heartbeatAt : null,
    };
  } catch {
    return null;
  }
}

/** Whether a lock's owner may still be running, or why it provably is not. */
export function ownerState(owner: LockRecord, now = Date.now(), hostname = os.hostname()): "alive" | "dead pid" | "no heartbeat" {
  const beat = Date.parse(owner.heartbeatAt ?? "");
  const silent = Number.isNaN(beat) || now - beat > STALE_AFTER_MS;
  if (owner.hostname !== hostname) {
    // Another host (a shared volume): its pid cannot be checked from here, only its heartbeat.
    // A lock without one (an older version) is not taken over: nothing proves its owner is gone.
    return owner.heartbeatAt !== null && silent ? "no heartbeat" : "alive";
  }
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "dead pid";
  }
  // The pid runs, but a live owner beats every few seconds: silence means the pid was reused.
  return owner.heartbeatAt !== null && silent ? "no heartbeat" : "alive";
}

function startHeartbeat(file: string, record: LockRecord): void {
  if (heartbeats.has(file)) return;
  const beat = setInterval(() => {
    try {
      const current = readLock(file);
      // Someone took the lock over (we were frozen past STALE_AFTER_MS): do not overwrite theirs.
      if (!current || current.pid !== record.pid || current.hostname !== record.hostname) return;
      fs.writeFileSync(file, JSON.stringify({ ...record, heartbeatAt: new Date().toISOString() }));
    } catch {
      /* a transient write failure: the next beat retries */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  heartbeats.set(file, beat);
}

let releaseRegistered = false;
function registerRelease(): void {
  if (releaseRegistered) return;
  releaseRegistered = true;
  process.once("exit", () => {
    for (const dataDir of [...held.values()]) releasePgliteLock(dataDir);
  });
}
