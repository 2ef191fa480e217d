/**
 * Audits in the background (lib/audit/README.md "Reachability audit"): one at a time per store
 * and process, with progress, cancellable; the last finished result kept in `store_audits` with
 * its time and the store's version, marked stale once the store has changed since.
 */
import "server-only";
import type { Prisma, PrismaClient } from "@prisma/client";
import { processSingleton } from "@/lib/server/process-singleton";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import { memoryVersion } from "@/lib/stores/server/embedded/index-snapshot";
import { resolveStore } from "@/lib/stores/server/registry";
import type { RemoteStore } from "@/lib/stores/server/remote/remote-store";
import { StoreError } from "@/lib/stores/types";
import type { AuditResult, AuditSettings, AuditStartBody, AuditState, AuditStatus } from "../types";
import { assembleAudit } from "./assemble";
import { probeEmbeddedStore, type ProbeRun } from "./embedded-audit";
import { probeRemoteStore, remoteAuditPlan } from "./remote-audit";

interface Job {
  state: Exclude<AuditState, "idle">;
  progress: { done: number; total: number; phase: string };
  startedAt: string;
  error: { code: string; message: string } | null;
  controller: AbortController;
  finished: Promise<void>;
}

const jobs = () => processSingleton("audit-jobs", () => new Map<string, Job>());

/** The store, or the 404 `unknown_store` the registry answers. */
async function storeOf(name: string) {
  return resolveStore(name);
}

/**
 * Starts an audit of `name` in the background. A remote store needs `confirm_calls` equal to the
 * calls it will make (else 409 `confirmation_required` stating them); a store already being
 * audited is a 409 `audit_running`.
 */
export async function startAudit(prisma: PrismaClient, name: string, input: AuditStartBody): Promise<AuditStatus> {
  const { confirm_calls: confirm, ...settings } = input;
  const store = await storeOf(name);
  refuseWhileRunning(name);
  let probe: (job: Job) => Promise<ProbeRun>;
  if (store.kind === "remote") {
    const remote = store as RemoteStore;
    const plan = await remoteAuditPlan(remote);
    if (confirm !== plan.calls) {
      throw new StoreError(
        409,
        "confirmation_required",
        `Auditing the remote store ${name} makes ${plan.calls} calls to its memory service (${plan.memories} recalls, each bumping access stats there, and the list pages); send confirm_calls: ${plan.calls} to start it.`,
        { store: name, calls: plan.calls, memories: plan.memories },
      );
    }
    probe = (job) => probeRemoteStore(remote, { signal: job.controller.signal, onProgress: progressOf(job) });
  } else {
    const embedded = await getEmbeddedStore(name);
    probe = (job) =>
      probeEmbeddedStore(prisma, embedded, {
        shadowThreshold: settings.shadow_threshold,
        signal: job.controller.signal,
        onProgress: progressOf(job),
      });
  }
  // Checked again after the awaits above, with nothing awaited before the job is registered.
  refuseWhileRunning(name);
  const job: Job = {
    state: "running",
    progress: { done: 0, total: 0, phase: "reading the store" },
    startedAt: new Date().toISOString(),
    error: null,
    controller: new AbortController(),
    finished: Promise.resolve(),
  };
  jobs().set(name, job);
  job.finished = runJob(prisma, name, store.kind, settings, job, probe);
  return auditStatus(prisma, name);
}

function refuseWhileRunning(name: string): void {
  if (jobs().get(name)?.state !== "running") return;
  throw new StoreError(409, "audit_running", `An audit of ${name} is running; wait for it or cancel it (DELETE).`, {
    store: name,
  });
}

function progressOf(job: Job) {
  return (done: number, total: number) => {
    job.progress = { done, total, phase: "probing" };
  };
}

async function runJob(
  prisma: PrismaClient,
  name: string,
  kind: "embedded" | "remote",
  settings: AuditSettings,
  job: Job,
  probe: (job: Job) => Promise<ProbeRun>,
): Promise<void> {
  try {
    const version = kind === "embedded" ? await memoryVersion(prisma, name) : null;
    const run = await probe(job);
    job.progress = { ...job.progress, phase: "reading the recall log" };
    const result = await assembleAudit(prisma, { store: name, kind, version, settings, startedAt: job.startedAt }, run);
    if (await saveResult(prisma, result)) job.state = "done";
    // The store was deleted while it ran: nothing is kept, and nothing is said of the name.
    else if (jobs().get(name) === job) jobs().delete(name);
  } catch (error) {
    if (job.controller.signal.aborted) {
      job.state = "cancelled";
      return;
    }
    job.state = "failed";
    job.error =
      error instanceof StoreError
        ? { code: error.code, message: error.message }
        : { code: "audit_failed", message: error instanceof Error ? error.message : String(error) };
    if (!(error instanceof StoreError)) console.error(error);
  }
}

/**
 * Keeps the result as the store's last; false, keeping nothing, when the embedded store was
 * deleted meanwhile (lib/audit/README.md "Reachability audit": no row outlives its store). The
 * write locks the store's row (FOR SHARE), so a delete either waits for it and removes the row
 * with the store, or went first and leaves nothing to write.
 */
async function saveResult(prisma: PrismaClient, result: AuditResult): Promise<boolean> {
  if (result.kind === "remote") {
    const data = {
      version: result.version,
      startedAt: new Date(result.started_at),
      finishedAt: new Date(result.finished_at),
      result: result as unknown as Prisma.InputJsonValue,
    };
    await prisma.storeAudit.upsert({ where: { store: result.store }, create: { store: result.store, ...data }, update: data });
    return true;
  }
  const saved = await prisma.$executeRaw`
    INSERT INTO "store_audits" ("store", "version", "started_at", "finished_at", "result")
    SELECT s."name", ${result.version}, ${new Date(result.started_at)}, ${new Date(result.finished_at)}, ${JSON.stringify(result)}::jsonb
    FROM "embedded_stores" s WHERE s."name" = ${result.store} FOR SHARE
    ON CONFLICT ("store") DO UPDATE SET "version" = EXCLUDED."version", "started_at" = EXCLUDED."started_at",
      "finished_at" = EXCLUDED."finished_at", "result" = EXCLUDED."result"`;
  return saved > 0;
}

/**
 * State, progress and the last result of `name`'s audit (`withResult: false`: without the result,
 * which is then not even read); 404 `unknown_store` for a store there is not.
 */
export async function auditStatus(
  prisma: PrismaClient,
  name: string,
  { withResult = true }: { withResult?: boolean } = {},
): Promise<AuditStatus> {
  const store = await storeOf(name);
  let job = jobs().get(name);
  const row = await prisma.storeAudit.findUnique({
    where: { store: name },
    select: { version: true, startedAt: true, finishedAt: true, result: withResult },
  });
  // A finished audit whose result is gone was of a store deleted since: a new store of that name has none.
  if (job?.state === "done" && !row) {
    jobs().delete(name);
    job = undefined;
  }
  const result = withResult ? ((row?.result as unknown as AuditResult | undefined) ?? null) : null;
  const stale = row && store.kind === "embedded" ? row.version !== (await memoryVersion(prisma, name)) : false;
  return {
    store: name,
    state: job?.state ?? (row ? "done" : "idle"),
    progress: job?.state === "running" ? job.progress : null,
    started_at: job?.startedAt ?? row?.startedAt.toISOString() ?? null,
    error: job?.error ?? null,
    result_finished_at: row?.finishedAt.toISOString() ?? null,
    result,
    stale,
  };
}

/** Cancels the running audit of `name` (409 `audit_not_running` when none runs); the last result stays. */
export async function cancelAudit(prisma: PrismaClient, name: string): Promise<AuditStatus> {
  await storeOf(name);
  const job = jobs().get(name);
  if (job?.state !== "running") {
    throw new StoreError(409, "audit_not_running", `No audit of ${name} is running.`, { store: name });
  }
  job.controller.abort();
  await job.finished;
  return auditStatus(prisma, name);
}

/** Settles when the audit of `name` (if any) has finished: tests and the benchmark. */
export async function auditFinished(name: string): Promise<void> {
  await jobs().get(name)?.finished;
}
