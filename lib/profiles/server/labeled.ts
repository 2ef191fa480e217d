import type { Prisma, PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import type { FitExample } from "@/lib/calibration/fit";
import {
  fitVerdictModel,
  MIN_LABELS_PER_CLASS,
  recallSignals,
  type RecallSignals,
  type VerdictExample,
  type VerdictFit,
} from "@/lib/calibration/model";
import type { StoredCandidate } from "@/lib/calibration/level";
import type { HistoryFilters } from "@/lib/recall-log/history";
import { historyWhere } from "@/lib/recall-log/server/history-list";

/** Most labeled recalls a fit reads (a fit over more is slow and gains little). */
export const MAX_FIT_RECALLS = 20_000;

/** Stored merged lists of these recalls, rank order, in one query. */
export async function candidatesOf(prisma: PrismaClient, ids: readonly string[]): Promise<Map<string, StoredCandidate[]>> {
  const out = new Map<string, StoredCandidate[]>();
  if (ids.length === 0) return out;
  const rows = await prisma.recallCandidate.findMany({
    where: { recallId: { in: [...ids] } },
    select: { recallId: true, rawCosine: true, hybridScore: true, keywordScore: true },
    orderBy: [{ recallId: "asc" }, { rank: "asc" }],
  });
  for (const r of rows) {
    let list = out.get(r.recallId);
    if (!list) out.set(r.recallId, (list = []));
    list.push({ raw_cosine: r.rawCosine, hybrid_score: r.hybridScore, keyword_score: r.keywordScore });
  }
  return out;
}

/**
 * An example for each recall whose merged list was logged and that `example` accepts (null: no
 * label to learn from); every other recall is counted as skipped.
 */
async function examplesOf<R extends { id: string; hasCandidates: boolean; profileConfidence?: Prisma.JsonValue }>(
  prisma: PrismaClient,
  recalls: readonly R[],
  example: (recall: R, candidates: StoredCandidate[]) => FitExample | null,
): Promise<{ examples: FitExample[]; skipped: number }> {
  const pools = await candidatesOf(
    prisma,
    recalls.filter((r) => r.hasCandidates).map((r) => r.id),
  );
  const examples: FitExample[] = [];
  let skipped = 0;
  for (const r of recalls) {
    const candidates = pools.get(r.id);
    const made = candidates ? example(r, candidates) : null;
    if (made) examples.push({ ...made, signals: signalsOf(r.profileConfidence) });
    else skipped++;
  }
  return { examples, skipped };
}

/** Examples of an evaluation run: its logged recalls, labeled by their set's items (empty relevant = absent). */
export async function examplesFromRun(prisma: PrismaClient, runId: string): Promise<{ examples: FitExample[]; skipped: number }> {
  const run = await prisma.evalRun.findUnique({ where: { id: runId }, select: { datasetId: true } });
  if (!run) throw ApiError.notFound(`Evaluation run ${runId}`);
  const [recalls, items] = await Promise.all([
    prisma.recall.findMany({
      where: { evalRunId: runId, status: "ok" },
      select: { id: true, k: true, evalItem: true, hasCandidates: true, profileConfidence: true },
      // In set order: the folds are assigned in example order, so an unordered read made the
      // estimate depend on the order the database returned rows in.
      orderBy: [{ evalItem: "asc" }, { id: "asc" }],
      take: MAX_FIT_RECALLS,
    }),
    prisma.datasetItem.findMany({
      where: { datasetId: run.datasetId },
      select: { position: true, relevant: true, kind: true, itemId: true },
    }),
  ]);
  const byPosition = new Map(items.map((i) => [i.position, i]));
  return examplesOf(prisma, recalls, (r, candidates) => {
    const item = r.evalItem === null ? undefined : byPosition.get(r.evalItem);
    if (!item) return null;
    return {
      group: item.itemId ?? `item-${item.position}`,
      present: item.relevant.length > 0,
      kind: item.kind,
      k: r.k,
      candidates,
    };
  });
}

/** Examples from labeled recalls in History ("a relevant memory was present": yes/no; unsure is left out). */
export async function examplesFromRecalls(
  prisma: PrismaClient,
  filters: HistoryFilters,
): Promise<{ examples: FitExample[]; skipped: number }> {
  const where: Prisma.RecallWhereInput = {
    AND: [historyWhere(filters), { labelPresent: { in: ["yes", "no"] } }, { status: "ok" }],
  };
  const recalls = await prisma.recall.findMany({
    where,
    select: { id: true, k: true, labelPresent: true, hasCandidates: true, query: true, profileConfidence: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MAX_FIT_RECALLS,
  });
  // One query asked several times stays in one fold.
  return examplesOf(prisma, recalls, (r, candidates) => ({
    group: r.query.trim().toLowerCase(),
    present: r.labelPresent === "yes",
    kind: null,
    k: r.k,
    candidates,
  }));
}

/** The verdict's signals a recall logged (profile_confidence.signals), or null. */
function signalsOf(block: Prisma.JsonValue | undefined): RecallSignals | null {
  const signals = (block as { signals?: unknown } | null | undefined)?.signals;
  return signals && typeof signals === "object" ? (signals as RecallSignals) : null;
}

export interface LabeledVerdict {
  fit: VerdictFit;
  /** Set when the labels are too few to trust the probability (fewer than MIN_LABELS_PER_CLASS of a class). */
  warning: string | null;
}

/**
 * The store's verdict model fitted on labeled examples (docs/ARCHITECTURE.md "Threshold
 * profiles"): each recall's logged signals, else the ones its stored pool gives (without keyword
 * evidence). Fewer than MIN_LABELS_PER_CLASS labels of a class: fitted, and loudly marked.
 */
export function verdictFromLabels(examples: readonly FitExample[]): LabeledVerdict {
  const verdictExamples: VerdictExample[] = examples.map((e) => ({
    signals: e.signals ?? recallSignals(e.candidates, null),
    present: e.present,
    group: e.group,
    kind: e.kind ?? null,
  }));
  const fit = fitVerdictModel(verdictExamples, { method: "labels" });
  const { present, absent } = fit.model.trained_on;
  const warning =
    present < MIN_LABELS_PER_CLASS || absent < MIN_LABELS_PER_CLASS
      ? `Only ${present} present and ${absent} absent labels (fewer than ${MIN_LABELS_PER_CLASS} of each): the probability and its estimate are not to be trusted yet.`
      : null;
  return { fit, warning };
}
