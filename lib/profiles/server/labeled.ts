import type { Prisma, PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import type { FitExample } from "@/lib/calibration/fit";
import type { StoredCandidate } from "@/lib/calibration/level";
import {
  fitBasis,
  fitVerdictModel,
  MIN_LABELS_PER_CLASS,
  priorFor,
  PRIOR_UNTIL_LABELS,
  recallSignals,
  type RecallSignals,
  type VerdictExample,
  type VerdictFit,
} from "@/lib/calibration/model";
import { NEAR_MISS_KIND } from "@/lib/eval/metrics";
import type { HistoryFilters } from "@/lib/recall-log/history";
import { historyWhere } from "@/lib/recall-log/server/history-list";
import type { LabelFreeCalibration } from "./store-calibration";

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
async function examplesOf<R extends { id: string; store: string; hasCandidates: boolean; profileConfidence?: Prisma.JsonValue }>(
  prisma: PrismaClient,
  recalls: readonly R[],
  example: (recall: R, candidates: StoredCandidate[]) => FitExample | null,
): Promise<LabeledExamples> {
  const pools = await candidatesOf(
    prisma,
    recalls.filter((r) => r.hasCandidates).map((r) => r.id),
  );
  const examples: FitExample[] = [];
  const stores = new Set<string>();
  let skipped = 0;
  for (const r of recalls) {
    const candidates = pools.get(r.id);
    const made = candidates ? example(r, candidates) : null;
    if (made) {
      examples.push({ ...made, signals: signalsOf(r.profileConfidence) });
      stores.add(r.store);
    } else skipped++;
  }
  return { examples, skipped, stores: [...stores].sort() };
}

export interface LabeledExamples {
  examples: FitExample[];
  skipped: number;
  /** The stores the examples were recalled from (a label-free prior needs them to be one). */
  stores: string[];
}

/** Examples of an evaluation run: its logged recalls, labeled by their set's items (empty relevant = absent). */
export async function examplesFromRun(prisma: PrismaClient, runId: string): Promise<LabeledExamples> {
  const run = await prisma.evalRun.findUnique({ where: { id: runId }, select: { datasetId: true } });
  if (!run) throw ApiError.notFound(`Evaluation run ${runId}`);
  const [recalls, items] = await Promise.all([
    prisma.recall.findMany({
      where: { evalRunId: runId, status: "ok" },
      select: { id: true, store: true, k: true, evalItem: true, hasCandidates: true, profileConfidence: true },
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
export async function examplesFromRecalls(prisma: PrismaClient, filters: HistoryFilters): Promise<LabeledExamples> {
  const where: Prisma.RecallWhereInput = {
    AND: [historyWhere(filters), { labelPresent: { in: ["yes", "no"] } }, { status: "ok" }],
  };
  const recalls = await prisma.recall.findMany({
    where,
    select: { id: true, store: true, k: true, labelPresent: true, hasCandidates: true, query: true, profileConfidence: true },
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
  /** How the model was fitted, in words: "24 labels + label-free prior (weight 0.45)" or "240 labels". */
  basis: string;
  /** Why a fit from few labels had no prior (no kept label-free examples, labels from several stores). */
  prior_note: string | null;
}

/** Where the labels' store's label-free examples come from, for the prior (lib/calibration/model/prior.ts). */
export interface PriorSource {
  /** The one store the labels were recalled from, or null when they come from several (or none). */
  store: string | null;
  calibration: LabelFreeCalibration | null;
}

/**
 * The store's verdict model fitted on labeled examples (lib/calibration/README.md "Threshold
 * profiles"): each recall's logged signals, else the ones its stored pool gives (without keyword
 * evidence). While a class has fewer than PRIOR_UNTIL_LABELS labels, the store's label-free
 * examples are a prior (prior.ts), and the model is fitted on signals measured against the store's
 * null, as the shipped one is. Fewer than MIN_LABELS_PER_CLASS labels of a class: fitted, and
 * loudly marked.
 */
export function verdictFromLabels(examples: readonly FitExample[], source: PriorSource | null = null): LabeledVerdict {
  const verdictExamples: VerdictExample[] = examples.map((e) => ({
    signals: e.signals ?? recallSignals(e.candidates, null),
    present: e.present,
    group: e.group,
    kind: e.kind ?? null,
  }));
  const used = verdictExamples.filter((e) => e.kind !== NEAR_MISS_KIND);
  const counts = { present: used.filter((e) => e.present).length, absent: used.filter((e) => !e.present).length };
  const calibration = source?.store ? source.calibration : null;
  const prior = priorFor(
    counts,
    calibration?.examples,
    source?.store ? `store ${source.store}, calibrated without labels ${calibration?.updated_at ?? ""}`.trim() : undefined,
  );
  const fit = fitVerdictModel(verdictExamples, { method: "labels", prior, relativeTo: calibration?.null ?? null });
  const { present, absent } = fit.model.trained_on;
  const warning =
    present < MIN_LABELS_PER_CLASS || absent < MIN_LABELS_PER_CLASS
      ? `Only ${present} present and ${absent} absent labels (fewer than ${MIN_LABELS_PER_CLASS} of each): the probability and its estimate are not to be trusted yet.`
      : null;
  const few = Math.min(present, absent) < PRIOR_UNTIL_LABELS;
  const prior_note =
    !few || prior
      ? null
      : !source?.store
        ? "No label-free prior: the labels come from several stores (filter them to one)."
        : `No label-free prior: store ${source.store} has no kept label-free calibration yet (calibrate it, then fit again).`;
  return { fit, warning, basis: fitBasis(present + absent, fit.model.prior), prior_note };
}
