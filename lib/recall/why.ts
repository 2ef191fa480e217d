/**
 * "Why isn't this memory here?" (lib/recall/README.md "Explaining a ranking"): where one memory
 * stood in a logged recall — its raw cosine, its BM25, its rank in each arm and in the merge —
 * and the one rule that kept it off the page (or that it is on it). Pure: the caller reads the
 * logged recall, the memory as the store holds it now, and (where cheap) its scores computed now,
 * which are shown but were never used by the merge.
 */
import { armCounts, armRanks, type ArmRanks, type RankedCandidate } from "./arm-ranks";
import type { SearchMode } from "./merge";

export type WhyReason =
  /** On the page the agent got. */
  | "on_page"
  /** On the page, then removed by the selector. */
  | "dropped_by_selector"
  /** Fetched, but merged below the page. */
  | "below_page"
  /** Not fetched by an arm whose window was full, though it would have scored there. */
  | "outside_fetch_window"
  /** Keyword search (or a hybrid search degraded to it): no term of the query is in the memory. */
  | "no_keyword_match"
  | "filtered_by_type"
  | "filtered_by_tag"
  /** Its vector is missing or from another model, so the semantic arm could not see it. */
  | "embedded_with_another_model"
  /** A memory of this store once (it is in the log), gone now. */
  | "deleted"
  /** Created after the recall ran. */
  | "created_after_recall"
  /** The recall failed: nothing was ranked. */
  | "recall_failed"
  /** A store that does not expose its candidate pool (a remote service): only the page is known. */
  | "pool_not_exposed";

export interface WhyRecallInput {
  status: "ok" | "error";
  searchMode: SearchMode;
  /** The hybrid search ran keyword-only (the embedder failed). */
  degraded: boolean;
  /** ISO time the recall ran. */
  createdAt: string;
  /** The most hits each arm fetched. */
  fetchSize: number;
  filters?: { types?: readonly string[]; tags?: readonly string[]; tags_match?: "any" | "all" } | null;
  /** The logged candidate list, or null when the store does not expose it. */
  candidates: readonly RankedCandidate[] | null;
  /** The page as the agent got it (kept) and what the selector removed. */
  pageIds: readonly string[];
  droppedIds: readonly string[];
}

/** The memory as the store holds it now; null when the store no longer has it. */
export interface WhyMemoryNow {
  type: string;
  tags: readonly string[];
  createdAt: string;
  /** It has a vector of the model the store embeds queries with. */
  vectorCurrent: boolean;
  embeddingModel: string | null;
}

export interface WhyInput {
  memoryId: string;
  recall: WhyRecallInput;
  /** Null: not in the store now. Undefined: the store's memories are not visible here (remote). */
  memory: WhyMemoryNow | null | undefined;
  /** Scores computed now, for display only; null where not computed (or not computable). */
  computed?: { raw_cosine: number | null; keyword_score: number | null };
}

export interface WhyAnswer {
  memory_id: string;
  /** The cosine the merge used; when it did not (`ranks.semantic` null), the one computed now, or null. */
  raw_cosine: number | null;
  /** The BM25 the merge used; when it did not (`ranks.keyword` null), the one computed now, or null. */
  keyword_score: number | null;
  raw_cosine_used_by_merge: boolean;
  keyword_score_used_by_merge: boolean;
  ranks: ArmRanks;
  reason: WhyReason;
  message: string;
}

const fmt = (n: number, digits: number) => n.toFixed(digits);

export function whyNotHere(input: WhyInput): WhyAnswer {
  const { memoryId: id, recall, memory } = input;
  const candidates = recall.candidates ?? [];
  const candidate = candidates.find((c) => c.memory_id === id) ?? null;
  const ranks: ArmRanks = candidate ? armRanks(candidates).get(id)! : { semantic: null, keyword: null, merged: null };
  const computedCosine = input.computed?.raw_cosine ?? null;
  const computedKeyword = input.computed?.keyword_score ?? null;
  const cosineUsed = candidate?.raw_cosine != null;
  const keywordUsed = candidate?.keyword_score != null;
  const answer = (reason: WhyReason, message: string): WhyAnswer => ({
    memory_id: id,
    raw_cosine: cosineUsed ? candidate!.raw_cosine : computedCosine,
    keyword_score: keywordUsed ? candidate!.keyword_score : computedKeyword,
    raw_cosine_used_by_merge: cosineUsed,
    keyword_score_used_by_merge: keywordUsed,
    ranks,
    reason,
    message,
  });
  const semanticRan = recall.searchMode !== "keyword" && !recall.degraded;
  const keywordRan = recall.searchMode !== "semantic";
  const counts = armCounts(candidates);
  const keywordFull = counts.keyword >= recall.fetchSize;
  const semanticFull = counts.semantic >= recall.fetchSize;
  const pageSize = candidates.filter((c) => c.in_pool).length || recall.pageIds.length;

  if (recall.status === "error") return answer("recall_failed", "This recall failed, so nothing was ranked.");
  if (recall.droppedIds.includes(id)) {
    return answer(
      "dropped_by_selector",
      `${id} was on the page${candidate ? ` at rank ${candidate.rank}` : ""}, then the selector removed it.`,
    );
  }
  if (recall.pageIds.includes(id)) {
    return answer("on_page", `${id} is on the page${candidate ? ` at rank ${candidate.rank}` : ""}.`);
  }
  if (recall.candidates === null) {
    return answer(
      "pool_not_exposed",
      `${id} is not on the page, and this store does not expose its candidate pool, so where it ranked is unknown.`,
    );
  }

  if (candidate) {
    const notFetchedKeyword =
      keywordRan && !recall.degraded && recall.searchMode === "hybrid" && candidate.keyword_score === null;
    if (notFetchedKeyword && keywordFull && computedKeyword !== null && computedKeyword > 0) {
      return answer(
        "outside_fetch_window",
        `${id} was fetched by the semantic arm (rank ${ranks.semantic}) but was outside the keyword arm's fetch window ` +
          `(its top ${recall.fetchSize}), so its BM25 counted as 0 in the merge; its BM25 is ${fmt(computedKeyword, 2)} ` +
          `(computed now, not used by the merge). It merged at rank ${candidate.rank}, below the page of ${pageSize}.`,
      );
    }
    const arms = [
      candidate.raw_cosine !== null ? `raw cosine ${fmt(candidate.raw_cosine, 3)} (semantic rank ${ranks.semantic})` : null,
      candidate.keyword_score !== null ? `BM25 ${fmt(candidate.keyword_score, 2)} (keyword rank ${ranks.keyword})` : null,
    ].filter(Boolean);
    return answer(
      "below_page",
      `${id} was fetched${arms.length ? ` with ${arms.join(" and ")}` : ""} but merged at rank ${candidate.rank}, below the page of ${pageSize}.`,
    );
  }

  if (memory === null)
    return answer("deleted", `${id} is no longer in the store (deleted); it is not in this recall's candidates.`);
  if (memory !== undefined) {
    if (memory.createdAt > recall.createdAt) {
      return answer("created_after_recall", `${id} was created after this recall ran (${memory.createdAt}).`);
    }
    const types = recall.filters?.types ?? [];
    if (types.length > 0 && !types.includes(memory.type)) {
      return answer(
        "filtered_by_type",
        `${id} is of type "${memory.type}", and this recall asked only for ${types.map((t) => `"${t}"`).join(", ")}.`,
      );
    }
    const tags = recall.filters?.tags ?? [];
    if (tags.length > 0) {
      const all = recall.filters?.tags_match === "all";
      const pass = all ? tags.every((t) => memory.tags.includes(t)) : tags.some((t) => memory.tags.includes(t));
      if (!pass) {
        return answer(
          "filtered_by_tag",
          `${id} has tags ${memory.tags.length ? memory.tags.map((t) => `"${t}"`).join(", ") : "none"}, and this recall asked for ${all ? "all" : "any"} of ${tags.map((t) => `"${t}"`).join(", ")}.`,
        );
      }
    }
  }

  const keywordOnly = !semanticRan;
  if (keywordOnly && keywordRan) {
    if (computedKeyword === 0) return answer("no_keyword_match", `${id} holds none of the query's keywords (BM25 0).`);
    return answer(
      "outside_fetch_window",
      `${id} was outside the keyword arm's fetch window (its top ${recall.fetchSize}, all fetched)` +
        (computedKeyword !== null ? `; its BM25 is ${fmt(computedKeyword, 2)} (computed now, not used by the merge).` : "."),
    );
  }
  if (memory && !memory.vectorCurrent) {
    if (recall.searchMode === "hybrid" && computedKeyword !== null && computedKeyword > 0 && keywordFull) {
      return answer(
        "outside_fetch_window",
        `${id} has no vector of the current model (${memory.embeddingModel ?? "none"}), and was outside the keyword arm's fetch window (its top ${recall.fetchSize}); its BM25 is ${fmt(computedKeyword, 2)} (computed now, not used by the merge).`,
      );
    }
    return answer(
      "embedded_with_another_model",
      `${id} was embedded with ${memory.embeddingModel ?? "no model"}, not the model this store embeds queries with, so the semantic arm could not see it` +
        (recall.searchMode === "hybrid" ? (computedKeyword === 0 ? ", and it holds none of the query's keywords." : ".") : "."),
    );
  }
  const lastCosine = minOf(candidates.map((c) => c.raw_cosine));
  const semanticPart =
    computedCosine !== null
      ? `its raw cosine ${fmt(computedCosine, 3)} (computed now, not used by the merge)` +
        (lastCosine !== null ? ` is below the last one the semantic arm fetched (${fmt(lastCosine, 3)})` : "")
      : "its raw cosine was not fetched";
  const keywordPart =
    recall.searchMode === "hybrid"
      ? computedKeyword === null
        ? ""
        : computedKeyword === 0
          ? "; it holds none of the query's keywords"
          : `; its BM25 ${fmt(computedKeyword, 2)} (computed now, not used by the merge) was outside the keyword arm's window too`
      : "";
  return answer(
    "outside_fetch_window",
    `${id} was outside the fetch window (each arm fetched its top ${recall.fetchSize}${semanticFull ? "" : ", the semantic arm fewer"}): ${semanticPart}${keywordPart}.`,
  );
}

function minOf(values: readonly (number | null)[]): number | null {
  let least: number | null = null;
  for (const v of values) if (v !== null && (least === null || v < least)) least = v;
  return least;
}
