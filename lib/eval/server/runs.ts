import { Prisma, type EvalRun, type PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import type { Profile } from "@/lib/calibration/profile";
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { RecallFailedError, runRecall } from "@/lib/recall-log/server/run-recall";
import { createSelector } from "@/lib/selectors";
import type { MemoryStore } from "@/lib/stores/types";
import { evalMetrics } from "../metrics";
import { firstRelevantRank } from "../retrieval-metrics";
import {
  outcomeOf,
  type EvalRunBody,
  type EvalRunItem,
  type EvalRunReport,
  type EvalRunStatus,
  type EvalRunSummary,
} from "../run-schemas";

/**
 * Evaluation runs (lib/eval/README.md "Evaluation"): a set × a store × settings, run as a
 * background job inside the server process. Each query goes through `runRecall`, the console's
 * own code, and is logged with source "eval" and a link to its run, so every figure of the report
 * can be recomputed from the recall log and every row opens in the console.
 *
 * The database is the source of truth for a run's state: progress is written after every query
 * with `WHERE status = 'running'`, so a cancel (which flips the status) stops the loop at the
 * next query even if it arrived through another bundle or instance; a server that stops mid-run
 * leaves a `running` row that the next start marks `interrupted` (`markInterruptedRuns`).
 */

export interface RunDeps {
  prisma: PrismaClient;
  resolveStore: (name: string) => Promise<MemoryStore>;
  /** The store a run naming none measures (the default embedded store). */
  defaultStore: () => Promise<string>;
  /**
   * The threshold profile a run judges with: the named one, or (name null) the one the store
   * uses, as the console does. Null when a named profile does not exist. Without it, the
   * reference constants.
   */
  resolveProfile?: (store: string, name: string | null) => Promise<Profile | null>;
  env?: Readonly<Record<string, string | undefined>>;
}

// One run at a time per process: runs share the CPU with the console's own recalls, and a
// queue keeps a second run's progress honest (queued, then running) instead of halving both.
const globalForRuns = globalThis as unknown as { recallInspectorEvalQueue?: Promise<void> };

/** A run named a threshold profile that does not exist. */
export class UnknownProfileError extends Error {
  override readonly name = "UnknownProfileError";
  constructor(readonly profile: string) {
    super(`There is no threshold profile named "${profile}".`);
  }
}

/**
 * A run asked for a selector that is not set up here (the LLM without its settings): it would
 * keep every page whole and report the metrics of selector "off" under another name.
 */
export class SelectorUnavailableError extends Error {
  override readonly name = "SelectorUnavailableError";
  constructor(
    readonly selector: string,
    /** How to set it up, or what is wrong with its settings. */
    readonly hint: string,
  ) {
    super(
      `The ${selector === "llm" ? "LLM" : selector} selector is not configured here (${hint}); a run with it would keep every page whole and measure the same as selector off.`,
    );
  }
}

/** Stores the run as queued and starts it in the background; null when the set does not exist. */
export async function startEvalRun(deps: RunDeps, body: EvalRunBody): Promise<{ id: string; status: EvalRunStatus } | null> {
  const dataset = await deps.prisma.dataset.findUnique({ where: { id: body.dataset_id }, select: { itemCount: true } });
  if (!dataset) return null;
  // An unknown store is refused now (StoreError → 404), not discovered by the job; an embedded
  // store opens here, which the job would wait for anyway.
  const store = await deps.resolveStore(body.store ?? (await deps.defaultStore()));
  // A rerank the store cannot do is refused now (StoreError → 422), like the console's recall.
  if (body.use_rerank) store.checkRequest?.({ query: "", k: body.k, searchMode: body.search_mode, useRerank: true });
  // An LLM selector that is not configured is refused now, as the console offers it disabled.
  if (body.selector !== "off") {
    const created = createSelector(body.selector, deps.env ?? process.env);
    if (!created.selector) throw new SelectorUnavailableError(body.selector, created.hint);
  }
  // The profile is resolved now and its name recorded, so the report says what judged the triage.
  let profile: string | null = null;
  if (deps.resolveProfile) {
    const found = await deps.resolveProfile(store.name, body.profile ?? null);
    if (!found) throw new UnknownProfileError(body.profile ?? "");
    profile = found.name;
  } else if (body.profile) {
    throw new UnknownProfileError(body.profile);
  }
  const id = randomUUID();
  await deps.prisma.evalRun.create({
    data: {
      id,
      datasetId: body.dataset_id,
      store: store.name,
      k: body.k,
      searchMode: body.search_mode,
      selector: body.selector,
      useRerank: body.use_rerank,
      profile,
      total: dataset.itemCount,
    },
  });
  const previous = globalForRuns.recallInspectorEvalQueue ?? Promise.resolve();
  globalForRuns.recallInspectorEvalQueue = previous.then(() =>
    executeEvalRun(deps, id).catch((error: unknown) => console.error(`Recall Inspector: evaluation run ${id} failed:`, error)),
  );
  return { id, status: "queued" };
}

/** Resolves when every run queued so far in this process has finished (tests, scripts). */
export function evalQueueIdle(): Promise<void> {
  return globalForRuns.recallInspectorEvalQueue ?? Promise.resolve();
}

/** Runs a queued run to its end; a run cancelled while queued is left alone. */
export async function executeEvalRun(deps: RunDeps, id: string): Promise<void> {
  const { prisma } = deps;
  const claimed = await prisma.evalRun.updateMany({
    where: { id, status: "queued" },
    data: { status: "running", startedAt: new Date() },
  });
  if (claimed.count === 0) return;
  try {
    const run = (await prisma.evalRun.findUnique({ where: { id } }))!;
    const store = await deps.resolveStore(run.store);
    const profile = run.profile && deps.resolveProfile ? await deps.resolveProfile(run.store, run.profile) : null;
    const items = await prisma.datasetItem.findMany({ where: { datasetId: run.datasetId }, orderBy: { position: "asc" } });
    const missing = await missingIds(
      prisma,
      store,
      items.flatMap((item) => item.relevant ?? []),
    );
    await prisma.evalRun.update({ where: { id }, data: { missingIds: missing as unknown as Prisma.InputJsonValue } });
    for (const item of items) {
      const body = RecallBodySchema.parse({
        store: run.store,
        query: item.query,
        k: run.k,
        search_mode: run.searchMode,
        selector: run.selector,
        use_rerank: run.useRerank,
      });
      try {
        await runRecall(body, store, prisma, { env: deps.env, profile, evalRun: { id, item: item.position } });
      } catch (error) {
        // A failed recall is logged (status error) and counted in the report's errors.
        if (!(error instanceof RecallFailedError)) throw error;
      }
      const progressed = await prisma.evalRun.updateMany({ where: { id, status: "running" }, data: { done: { increment: 1 } } });
      if (progressed.count === 0) return; // cancelled (or marked interrupted by another start)
    }
    await prisma.evalRun.updateMany({ where: { id, status: "running" }, data: { status: "done", finishedAt: new Date() } });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await prisma.evalRun.updateMany({
      where: { id, status: "running" },
      data: { status: "failed", finishedAt: new Date(), error: { message } },
    });
    throw error;
  }
}

const MISSING_LISTED = 100;

/** Relevant ids the store does not hold. Only the embedded store can be asked cheaply; a remote one is reported unchecked. */
export async function missingIds(
  prisma: PrismaClient,
  store: MemoryStore,
  ids: readonly string[],
): Promise<NonNullable<EvalRunSummary["missing_ids"]>> {
  if (store.kind !== "embedded") return { checked: false, count: null, ids: [] };
  const unique = [...new Set(ids)];
  const found = new Set<string>();
  for (let i = 0; i < unique.length; i += 5000) {
    const rows = await prisma.memory.findMany({
      where: { store: store.name, id: { in: unique.slice(i, i + 5000) } },
      select: { id: true },
    });
    for (const row of rows) found.add(row.id);
  }
  const missing = unique.filter((id) => !found.has(id));
  return { checked: true, count: missing.length, ids: missing.slice(0, MISSING_LISTED) };
}

/** Cancels a queued or running run; returns its status afterwards, or null when there is no such run. */
export async function cancelEvalRun(prisma: PrismaClient, id: string): Promise<{ id: string; status: EvalRunStatus } | null> {
  await prisma.evalRun.updateMany({
    where: { id, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", finishedAt: new Date() },
  });
  const run = await prisma.evalRun.findUnique({ where: { id }, select: { status: true } });
  return run ? { id, status: run.status as EvalRunStatus } : null;
}

/**
 * Server start: a run still queued or running belongs to a process that is gone (runs live in
 * the process that started them), so it is marked interrupted. Returns how many.
 */
export async function markInterruptedRuns(prisma: PrismaClient): Promise<number> {
  const { count } = await prisma.evalRun.updateMany({
    where: { status: { in: ["queued", "running"] } },
    data: { status: "interrupted", finishedAt: new Date() },
  });
  return count;
}

type RunWithDataset = EvalRun & { dataset: { id: string; name: string } };

function summary(run: RunWithDataset): EvalRunSummary {
  return {
    id: run.id,
    status: run.status as EvalRunStatus,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    dataset: { id: run.dataset.id, name: run.dataset.name },
    progress: { done: run.done, total: run.total },
    settings: {
      store: run.store,
      k: run.k,
      search_mode: run.searchMode,
      selector: run.selector,
      use_rerank: run.useRerank,
      profile: run.profile,
    },
    missing_ids: (run.missingIds as EvalRunSummary["missing_ids"]) ?? null,
    error: (run.error as EvalRunSummary["error"]) ?? null,
  };
}

export async function listEvalRuns(
  prisma: PrismaClient,
  options: { datasetId?: string; limit?: number } = {},
): Promise<EvalRunSummary[]> {
  const runs = await prisma.evalRun.findMany({
    where: options.datasetId ? { datasetId: options.datasetId } : {},
    orderBy: { createdAt: "desc" },
    take: options.limit ?? 200,
    include: { dataset: { select: { id: true, name: true } } },
  });
  return runs.map(summary);
}

interface RecallRow {
  id: string;
  eval_item: number;
  status: string;
  level: string | null;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
  returned_ids: string[] | null;
  /** The profile's level and thresholds (profile_confidence) when the recall carries one. */
  profile_level: string | null;
  profile_probability: number | null;
  profile_thresholds: Thresholds | null;
  threshold_values: Thresholds | null;
}

/** The whole report: status, progress, settings, metrics over the queries done so far, and one item per query. */
export async function evalRunReport(prisma: PrismaClient, id: string): Promise<EvalRunReport | null> {
  const run = await prisma.evalRun.findUnique({ where: { id }, include: { dataset: { select: { id: true, name: true } } } });
  if (!run) return null;
  const [items, recalls] = await Promise.all([
    prisma.datasetItem.findMany({ where: { datasetId: run.datasetId }, orderBy: { position: "asc" } }),
    // Only the columns the report needs: the page's ids, not the whole logged recall.
    prisma.$queryRaw<RecallRow[]>`
      SELECT "id"::text AS id, "eval_item", "status", "level", "top_score", "prominence", "relative_margin",
             ARRAY(SELECT r->>'memory_id' FROM jsonb_array_elements("results") AS r) AS returned_ids,
             "profile_level", "profile_confidence"->'thresholds' AS profile_thresholds,
             ("profile_confidence"->>'probability')::float8 AS profile_probability,
             "confidence"->'threshold_values' AS threshold_values
      FROM "recalls" WHERE "eval_run_id" = ${id}::uuid ORDER BY "eval_item", "created_at"`,
  ]);
  const byPosition = new Map<number, RecallRow>();
  for (const row of recalls) if (!byPosition.has(row.eval_item)) byPosition.set(row.eval_item, row);
  // The recall's own profile block is what the console showed; a reference-profile run has none.
  const reportItems: EvalRunItem[] = [];
  let thresholds: Thresholds | null = null;
  for (const item of items) {
    const recall = byPosition.get(item.position);
    if (!recall) continue;
    thresholds ??= recall.profile_thresholds ?? recall.threshold_values;
    const relevant = item.relevant ?? [];
    const returned = recall.returned_ids ?? [];
    const referenceLevel = recall.status === "ok" ? ((recall.level as Level | null) ?? null) : null;
    const level = referenceLevel !== null && recall.profile_level ? (recall.profile_level as Level) : referenceLevel;
    reportItems.push({
      position: item.position,
      item_id: item.itemId,
      query: item.query,
      kind: item.kind,
      relevant,
      recall_id: recall.id,
      status: recall.status === "error" ? "error" : "ok",
      level,
      reference_level: referenceLevel,
      probability: referenceLevel !== null ? recall.profile_probability : null,
      top_score: recall.top_score,
      prominence: recall.prominence,
      relative_margin: recall.relative_margin,
      first_relevant_rank: firstRelevantRank(returned, relevant),
      returned_ids: returned,
    });
  }
  const metrics = evalMetrics(reportItems.map(outcomeOf), run.k);
  return { ...summary(run), metrics, thresholds, items: reportItems };
}

/** When each of these runs was made (an unknown id is left out): the run page's 404 and compare-runs' order. */
export async function evalRunDates(prisma: PrismaClient, ids: readonly string[]): Promise<{ id: string; createdAt: Date }[]> {
  return prisma.evalRun.findMany({
    where: { id: { in: ids.map((id) => id.toLowerCase()) } },
    select: { id: true, createdAt: true },
  });
}
