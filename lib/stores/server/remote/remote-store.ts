/**
 * A `MemoryStore` backed by a running memory service (the reference REST API).
 *
 * The service does not expose its candidate pool, so the outcome carries `candidates: null` and
 * the confidence block **as the service sent it**: level, top_score, prominence, relative_margin,
 * result_count and rationale are never recomputed. The dashboard's extra keys are filled in from
 * what the block allows:
 * - `background_mean` = top / (1 + prominence) when both exist, flagged `background_derived`
 *   (approximate: both inputs were rounded to 3 dp by the service);
 * - `background_std` null (not recoverable);
 * - `basis` inferred from the rationale prefix, else from the fields (docs/reference-rules.md
 *   "The confidence block");
 * - `thresholds` the default profile (the reference constants are hard-coded in the service);
 * - `trace` empty (the service does not report which rules fired).
 * The service's older answer (results by `id`, a `total`, no block) is read too: the block is
 * computed from the result scores by the fallback rules and marked `computed_from: "scores"`.
 */
import type { SearchMode } from "@/lib/recall/merge";
import type { MemoryResponse, RecallResponse } from "@/lib/recall/schemas";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import { confidenceOfAnswer, decodeSelectorBlock, degradedFromWire, type LoggedConfidence } from "@/lib/recall/wire";
import {
  StoreError,
  type MemoryStore,
  type RecallResultItem,
  type StoreRecallOutcome,
  type StoreRecallRequest,
} from "@/lib/stores/types";
import { RemoteMemoryService, type RemoteMemoryServiceOptions } from "./client";
import type { RemoteStoreConfig } from "./config";
import type {
  RemoteCallOptions,
  RemoteHealth,
  RemoteListParams,
  RemoteMemoryList,
  RemoteMemoryStats,
  RemoteRecallParams,
} from "./service-api";

/** A remote recall's outcome: the store outcome plus what only a remote service reports. */
export interface RemoteStoreRecallOutcome extends StoreRecallOutcome {
  confidence: LoggedConfidence;
  candidates: null;
  /** The service's selector block, decoded tolerantly; null when it sent none. */
  selector: IngestedSelectorBlock | null;
  /** Parts of the answer that were ignored (e.g. a malformed selector block). */
  warnings: string[];
}

/** What the store picker shows (the same shape as the registry's StoreInfo). */
export interface RemoteStoreInfo {
  name: string;
  kind: "remote";
  label: string;
  description: string;
}

export class RemoteStore implements MemoryStore {
  readonly kind = "remote" as const;
  readonly name: string;
  readonly label: string;
  readonly client: RemoteMemoryService;

  constructor(
    readonly config: RemoteStoreConfig,
    options: RemoteMemoryServiceOptions = {},
  ) {
    this.name = config.name;
    this.label = config.label;
    this.client = new RemoteMemoryService(config, options);
  }

  info(): RemoteStoreInfo {
    return {
      name: this.name,
      kind: "remote",
      label: this.label,
      description:
        `Memory service at ${this.config.baseUrl}, context ${this.config.contextId}. ` +
        "Its candidate pool is not exposed; a recall bumps access stats on the service.",
    };
  }

  /**
   * Runs the recall on the service. `signal` cancels it (the promise rejects with the signal's
   * reason); a timeout rejects with a 504 StoreError. Never retried.
   */
  async recall(request: StoreRecallRequest, signal?: AbortSignal): Promise<RemoteStoreRecallOutcome> {
    const answer = await this.client.recall(toRemoteParams(request, this.name), { signal });
    return toRemoteOutcome(answer.response, {
      searchMode: request.searchMode,
      remoteMs: answer.ms,
      warnings: answer.warnings,
      storeName: this.name,
    });
  }

  /** The service's memory list for the configured context (for a Memories page). */
  listMemories(params: RemoteListParams = {}, options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteMemoryList> {
    return this.client.list(params, options);
  }

  /** The service's memory stats for the configured context. */
  stats(options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteMemoryStats> {
    return this.client.stats(options);
  }

  /** Reachable, and the key accepted for the context? Never throws (except on cancellation). */
  health(options: RemoteCallOptions | AbortSignal = {}): Promise<RemoteHealth> {
    return this.client.health(options);
  }
}

/** The dashboard's recall request in the service's terms. */
export function toRemoteParams(request: StoreRecallRequest, storeName = "remote"): RemoteRecallParams {
  const types = request.filters?.types?.filter((t) => t !== "") ?? [];
  if (types.length > 1) {
    throw new StoreError(
      422,
      "unsupported_filter",
      `The remote store "${storeName}" filters by one memory type at a time; choose a single type (got ${types.length}).`,
      { store: storeName },
    );
  }
  const tags = request.filters?.tags?.filter((t) => t !== "") ?? [];
  const filters: NonNullable<RemoteRecallParams["filters"]> = {};
  if (types.length === 1) filters.type = types[0];
  if (tags.length > 0) {
    filters.tags = tags;
    if (request.filters?.tagsMatch) filters.tags_match = request.filters.tagsMatch;
  }
  return {
    query: request.query,
    k: request.k,
    // Only a mode the user picked: unset lets the service route the query (spec §2.2).
    ...(request.searchModeChosen === false ? {} : { search_mode: request.searchMode }),
    ...(request.useRerank === undefined ? {} : { use_rerank: request.useRerank }),
    filters,
  };
}

/**
 * A service `RecallResponse` as a store outcome. Pure; also fit for recalls captured elsewhere
 * (`POST /api/recalls` ingests reference responses).
 *
 * @param context.searchMode the mode the recall asked for, when known (helps infer the basis
 *   when the rationale is missing or unrecognised).
 * @throws StoreError 502 when a result has no score. An answer without a confidence block (the
 *   service's older shape) is judged by the fallback rules over its scores, marked `computed_from`.
 */
export function toRemoteOutcome(
  response: RecallResponse,
  context: { searchMode?: SearchMode | null; remoteMs?: number; warnings?: string[]; storeName?: string } = {},
): RemoteStoreRecallOutcome {
  const storeName = context.storeName ?? "remote";
  const results = response.results.map((item, index) => toResultItem(item, index, storeName));
  const degraded = degradedFromWire(response);
  const decoded = decodeSelectorBlock(response.selector);
  const warnings = [...(context.warnings ?? []), ...decoded.warnings];

  return {
    results,
    // The service's older answer states no block: computed here from its scores, marked computed_from.
    confidence: confidenceOfAnswer(response, { degraded: degraded !== undefined, searchMode: context.searchMode }),
    candidates: null,
    timings: context.remoteMs === undefined ? {} : { remote_ms: context.remoteMs },
    ...(degraded ? { degraded } : {}),
    selector: decoded.selector,
    warnings,
  };
}

function toResultItem(item: MemoryResponse, index: number, storeName: string): RecallResultItem {
  if (item.score === undefined) {
    throw new StoreError(
      502,
      "remote_bad_response",
      `The remote store "${storeName}" answered with something that is not a RecallResponse (results[${index}] has no score).`,
      { store: storeName },
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) if (value !== undefined && value !== null) out[key] = value;
  return { ...out, memory_id: item.memory_id, summary: item.summary ?? "", score: item.score };
}
