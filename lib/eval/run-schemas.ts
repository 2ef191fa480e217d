import { z } from "zod";
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { RecallSettingsShape } from "@/lib/recall-log/schemas";
import { withInputRules } from "@/lib/validation/input-rules";
import type { EvalOutcome } from "./metrics";
import type { EvalMetrics } from "./metrics";

/** Evaluation runs on the wire (client-safe): `POST /api/eval-runs` and what `GET` answers. */

export const EvalRunBodySchema = withInputRules(
  z.strictObject({
    dataset_id: z.uuid("dataset_id is not a set id"),
    // The console's own settings schema (one home): k = 0 is refused on both pages alike.
    store: RecallSettingsShape.store,
    k: RecallSettingsShape.k,
    search_mode: RecallSettingsShape.search_mode,
    /** "llm" is refused at the start when no LLM is configured (it would run as "off"). */
    selector: RecallSettingsShape.selector,
    /** Every recall asks the store's reranker; refused at the start when the store has none. */
    use_rerank: RecallSettingsShape.use_rerank,
    /** A threshold profile to judge triage with; null or absent: the store's default. */
    profile: z.string().min(1).max(100).nullable().optional(),
  }),
);
export type EvalRunBody = z.output<typeof EvalRunBodySchema>;
export type EvalRunBodyInput = z.input<typeof EvalRunBodySchema>;

export const EVAL_RUN_STATUSES = ["queued", "running", "done", "failed", "cancelled", "interrupted"] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];
export const isFinished = (status: EvalRunStatus): boolean => status !== "queued" && status !== "running";

export interface EvalRunSettings {
  store: string;
  k: number;
  search_mode: string;
  selector: string;
  use_rerank: boolean;
  profile: string | null;
}

export interface EvalRunSummary {
  id: string;
  status: EvalRunStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  dataset: { id: string; name: string };
  progress: { done: number; total: number };
  settings: EvalRunSettings;
  /** Relevant ids of the set the store does not hold (checked on the embedded store only). */
  missing_ids: { checked: boolean; count: number | null; ids: string[] } | null;
  error: { message: string } | null;
}

export interface EvalRunItem {
  /** 0-based position in the set. */
  position: number;
  item_id: string | null;
  query: string;
  kind: string | null;
  relevant: string[];
  recall_id: string;
  status: "ok" | "error";
  /** The level triage is judged by: the profile's when the run names one, else the reference's. */
  level: Level | null;
  /** The reference level (the wire `confidence.level`). */
  reference_level: Level | null;
  /** The store's verdict probability (a profile with a verdict model); null otherwise. */
  probability?: number | null;
  top_score: number | null;
  prominence: number | null;
  relative_margin: number | null;
  /** 1-based rank of the first relevant id on the page; null when none is there (or none is labeled). */
  first_relevant_rank: number | null;
  returned_ids: string[];
}

/** A run's item as the metrics read it: the page it returned is what is ranked. */
export function outcomeOf(item: EvalRunItem): EvalOutcome {
  return {
    kind: item.kind,
    relevant: item.relevant,
    ranked: item.returned_ids,
    level: item.level,
    probability: item.probability ?? null,
    top_score: item.top_score,
    prominence: item.prominence,
    relative_margin: item.relative_margin,
  };
}

export interface EvalRunReport extends EvalRunSummary {
  metrics: EvalMetrics;
  /** The threshold values the triage was judged with (for the distribution markers); null before the first recall. */
  thresholds: Thresholds | null;
  items: EvalRunItem[];
}

/** The path of `/api/eval-runs/{id}…`. */
export const EvalRunParamsSchema = z.object({ id: z.uuid("a run id is a UUID") });
/** `GET /api/eval-runs?dataset_id=`: one set's runs. */
export const EvalRunListQuerySchema = z.object({ dataset_id: z.uuid().optional() });
/** `GET /api/eval-runs/{id}/export?format=`. */
export const EvalRunExportQuerySchema = z.object({ format: z.enum(["csv", "jsonl"]).default("csv") });
