/**
 * One calibration without labels, run to the end (lib/profiles/README.md "Calibration without labels"): the
 * probes and the memory-made queries recalled against a store (not logged), the store's null,
 * and the label-free estimate under a model. No "server-only" here, so `npm run eval` can
 * calibrate its scratch stores the way the app does; store-calibration.ts runs it in the
 * background and keeps its state.
 */
import {
  calibrationEstimate,
  levelForProbability,
  predictVerdict,
  queryFromMemory,
  recallSignals,
  statedSignals,
  storeNull,
  type LabelFreeExamples,
  type RecallSignals,
  type StoreNull,
  type VerdictModel,
} from "@/lib/calibration/model";
import { mulberry32 } from "@/lib/random";
import type { MemoryStore } from "@/lib/stores/types";
import { probeQueries } from "./probes";

/** Memories sampled to make present-side queries. */
export const MEMORY_QUERIES = 120;

export interface CalibrationRun {
  null: StoreNull;
  examples: { probes: number; memories: number };
  estimate: { balanced_accuracy: number | null; auc: number | null; probes_worth_reading: number | null } | null;
  /** The signals of every probe and memory-made recall: a labeled fit's prior (lib/calibration/model/prior.ts). */
  signals: LabelFreeExamples;
}

/** Present-side queries from an even spread of the store's memories' summaries, in a fixed order. */
export function memoryQueries(summaries: readonly string[]): string[] {
  const rng = mulberry32(1);
  const out: string[] = [];
  const step = Math.max(1, Math.floor(summaries.length / MEMORY_QUERIES));
  for (let i = 0; i < summaries.length && out.length < MEMORY_QUERIES; i += step) {
    const q = queryFromMemory(summaries[i]!, rng);
    if (q) out.push(q);
  }
  return out;
}

export async function runCalibration(
  store: MemoryStore,
  input: { memoryQueries: readonly string[]; memories: number; model: VerdictModel | null; probes?: readonly string[] },
  onProgress?: (done: number, total: number) => Promise<void> | void,
): Promise<CalibrationRun> {
  const probeList = input.probes ?? probeQueries();
  const total = probeList.length + input.memoryQueries.length;
  const signalsOf = async (query: string): Promise<RecallSignals> => {
    const outcome = await store.recall({ query, k: 10, searchMode: "hybrid", searchModeChosen: false });
    return outcome.candidates ? recallSignals(outcome.candidates, outcome.keywordEvidence) : statedSignals(outcome.confidence);
  };
  const probes: RecallSignals[] = [];
  const present: RecallSignals[] = [];
  let done = 0;
  for (const [list, out] of [
    [probeList, probes],
    [input.memoryQueries, present],
  ] as const) {
    for (const query of list) {
      out.push(await signalsOf(query));
      if (++done % 100 === 0) await onProgress?.(done, total);
    }
  }
  const nul = { ...storeNull(probes), memories: input.memories };
  let estimate: CalibrationRun["estimate"] = null;
  if (input.model) {
    const model = input.model;
    const scored = [
      ...probes.map((s) => ({ probability: predictVerdict(model, s, nul).probability, present: false })),
      ...present.map((s) => ({ probability: predictVerdict(model, s, nul).probability, present: true })),
    ];
    const levelOf = (p: number) => levelForProbability(p, model.cuts);
    const e = calibrationEstimate(scored, levelOf);
    const worth = scored.filter(
      (x) => !x.present && (levelOf(x.probability) === "high" || levelOf(x.probability) === "moderate"),
    );
    estimate = {
      balanced_accuracy: e.balanced_accuracy,
      auc: e.auc,
      probes_worth_reading: probes.length ? worth.length / probes.length : null,
    };
  }
  return {
    null: nul,
    examples: { probes: probes.length, memories: present.length },
    estimate,
    signals: { probes, memories: present },
  };
}
