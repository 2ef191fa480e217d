import { describe, expect, it } from "vitest";
import type { RankedCandidate } from "./arm-ranks";
import { whyNotHere, type WhyInput, type WhyMemoryNow, type WhyRecallInput } from "./why";

/** A constructed merged list: [id, raw cosine, BM25], ranks in order, the first `pool` on the page. */
function list(rows: [string, number | null, number | null][], pool: number): RankedCandidate[] {
  return rows.map(([memory_id, raw_cosine, keyword_score], i) => ({
    memory_id,
    rank: i + 1,
    raw_cosine,
    keyword_score,
    hybrid_score: 1 - i / 10,
    in_pool: i < pool,
    returned: i < pool,
  }));
}

// Hybrid, page of 2, fetch window 3: the keyword arm's window is full (k1, k2, k3).
const CANDIDATES = list(
  [
    ["k1", 0.5, 3],
    ["k2", 0.45, 2.5],
    ["k3", null, 2],
    ["s1", 0.6, null],
    ["s2", 0.3, null],
  ],
  2,
);

function recallOf(overrides: Partial<WhyRecallInput> = {}): WhyRecallInput {
  return {
    status: "ok",
    searchMode: "hybrid",
    degraded: false,
    createdAt: "2026-12-01T10:00:00.000Z",
    fetchSize: 3,
    filters: null,
    candidates: CANDIDATES,
    pageIds: ["k1", "k2"],
    droppedIds: [],
    ...overrides,
  };
}

const MEMORY: WhyMemoryNow = {
  type: "note",
  tags: ["food"],
  createdAt: "2026-01-01T00:00:00.000Z",
  vectorCurrent: true,
  embeddingModel: "use-lite-512",
};

const ask = (memoryId: string, input: Partial<Omit<WhyInput, "memoryId">> = {}) =>
  whyNotHere({ memoryId, recall: recallOf(), memory: MEMORY, ...input });

describe("whyNotHere", () => {
  it("on the page: its merge values, ranks in each arm", () => {
    expect(ask("k1")).toEqual({
      memory_id: "k1",
      raw_cosine: 0.5,
      keyword_score: 3,
      raw_cosine_used_by_merge: true,
      keyword_score_used_by_merge: true,
      ranks: { semantic: 2, keyword: 1, merged: 1 },
      reason: "on_page",
      message: "k1 is on the page at rank 1.",
    });
  });

  it("dropped by the selector wins over on-page, and works without a candidate list", () => {
    expect(ask("k2", { recall: recallOf({ pageIds: ["k1"], droppedIds: ["k2"] }) }).reason).toBe("dropped_by_selector");
    const remote = ask("x", { recall: recallOf({ candidates: null, pageIds: ["a"], droppedIds: ["x"] }), memory: undefined });
    expect(remote).toMatchObject({ reason: "dropped_by_selector", ranks: { semantic: null, keyword: null, merged: null } });
    expect(remote.message).toBe("x was on the page, then the selector removed it.");
  });

  it("a failed recall ranked nothing", () => {
    expect(ask("k1", { recall: recallOf({ status: "error" }) }).reason).toBe("recall_failed");
  });

  it("a store without a candidate list: on the page, or 'pool not exposed'", () => {
    const remote = recallOf({ candidates: null });
    expect(ask("k1", { recall: remote, memory: undefined }).reason).toBe("on_page");
    expect(ask("zz", { recall: remote, memory: undefined })).toMatchObject({
      reason: "pool_not_exposed",
      raw_cosine: null,
      keyword_score: null,
    });
  });

  it("below the page, with both arms' values as the merge used them", () => {
    const answer = ask("k3");
    expect(answer).toMatchObject({
      reason: "below_page",
      raw_cosine: null,
      raw_cosine_used_by_merge: false,
      keyword_score: 2,
      ranks: { semantic: null, keyword: 3, merged: 3 },
    });
    expect(answer.message).toBe("k3 was fetched with BM25 2.00 (keyword rank 3) but merged at rank 3, below the page of 2.");
  });

  it("fetched by the semantic arm but outside the full keyword window with a BM25 > 0: 'outside the fetch window', the BM25 computed now", () => {
    const answer = ask("s1", { computed: { raw_cosine: null, keyword_score: 1.16 } });
    expect(answer).toMatchObject({
      reason: "outside_fetch_window",
      raw_cosine: 0.6,
      raw_cosine_used_by_merge: true,
      keyword_score: 1.16,
      keyword_score_used_by_merge: false,
      ranks: { semantic: 1, keyword: null, merged: 4 },
    });
    expect(answer.message).toContain("outside the keyword arm's fetch window (its top 3)");
    expect(answer.message).toContain("its BM25 is 1.16 (computed now, not used by the merge)");
  });

  it("the same memory with BM25 0, or with a window that was not full, is simply below the page", () => {
    expect(ask("s1", { computed: { raw_cosine: null, keyword_score: 0 } }).reason).toBe("below_page");
    expect(ask("s1", { recall: recallOf({ fetchSize: 10 }), computed: { raw_cosine: null, keyword_score: 1 } }).reason).toBe(
      "below_page",
    );
    expect(ask("s1").reason).toBe("below_page");
  });

  it("not among the candidates and gone from the store: deleted", () => {
    expect(ask("gone", { memory: null })).toMatchObject({
      reason: "deleted",
      ranks: { semantic: null, keyword: null, merged: null },
    });
  });

  it("created after the recall", () => {
    expect(ask("new", { memory: { ...MEMORY, createdAt: "2026-12-01T10:00:00.001Z" } }).reason).toBe("created_after_recall");
  });

  it("filtered by type, and by tag (any and all)", () => {
    const byType = ask("x", { recall: recallOf({ filters: { types: ["decision", "fact"] } }) });
    expect(byType.reason).toBe("filtered_by_type");
    expect(byType.message).toBe('x is of type "note", and this recall asked only for "decision", "fact".');
    expect(
      ask("x", { recall: recallOf({ filters: { types: ["note"] } }), computed: { raw_cosine: 0.1, keyword_score: 0 } }).reason,
    ).toBe("outside_fetch_window");
    const anyTag = recallOf({ filters: { tags: ["travel", "work"] } });
    expect(ask("x", { recall: anyTag }).reason).toBe("filtered_by_tag");
    expect(ask("x", { recall: recallOf({ filters: { tags: ["travel", "food"] } }) }).reason).toBe("outside_fetch_window");
    const allTags = recallOf({ filters: { tags: ["travel", "food"], tags_match: "all" } });
    const answer = ask("x", { recall: allTags });
    expect(answer.reason).toBe("filtered_by_tag");
    expect(answer.message).toBe('x has tags "food", and this recall asked for all of "travel", "food".');
    expect(ask("x", { recall: anyTag, memory: { ...MEMORY, tags: [] } }).message).toContain("has tags none");
  });

  it("embedded with another model: the semantic arm could not see it", () => {
    const stale = { ...MEMORY, vectorCurrent: false, embeddingModel: "openai-compatible:old" };
    const answer = ask("x", { memory: stale, computed: { raw_cosine: null, keyword_score: 0 } });
    expect(answer.reason).toBe("embedded_with_another_model");
    expect(answer.message).toContain("openai-compatible:old");
    expect(answer.message).toContain("none of the query's keywords");
    // …but with a BM25 that a full keyword window cut off, the window is the rule that bit.
    expect(ask("x", { memory: stale, computed: { raw_cosine: null, keyword_score: 0.5 } }).reason).toBe("outside_fetch_window");
    expect(
      ask("x", { memory: { ...stale, embeddingModel: null }, recall: recallOf({ searchMode: "semantic" }) }).message,
    ).toContain("no model");
  });

  it("not fetched by either arm: outside the fetch window, with the scores computed now and the arm's last cosine", () => {
    const answer = ask("x", { computed: { raw_cosine: 0.12, keyword_score: 0.4 } });
    expect(answer).toMatchObject({
      reason: "outside_fetch_window",
      raw_cosine: 0.12,
      keyword_score: 0.4,
      raw_cosine_used_by_merge: false,
      keyword_score_used_by_merge: false,
      ranks: { semantic: null, keyword: null, merged: null },
    });
    expect(answer.message).toContain(
      "its raw cosine 0.120 (computed now, not used by the merge) is below the last one the semantic arm fetched (0.300)",
    );
    expect(answer.message).toContain(
      "its BM25 0.40 (computed now, not used by the merge) was outside the keyword arm's window too",
    );
    expect(ask("x", { computed: { raw_cosine: 0.12, keyword_score: 0 } }).message).toContain(
      "holds none of the query's keywords",
    );
    expect(ask("x").message).toContain("its raw cosine was not fetched");
  });

  it("keyword mode (and degraded hybrid): no match when BM25 is 0, else outside the window", () => {
    const keyword = recallOf({
      searchMode: "keyword",
      candidates: list(
        [
          ["k1", null, 3],
          ["k2", null, 2],
        ],
        1,
      ),
      pageIds: ["k1"],
    });
    expect(ask("x", { recall: keyword, computed: { raw_cosine: null, keyword_score: 0 } }).reason).toBe("no_keyword_match");
    const outside = ask("x", { recall: keyword, computed: { raw_cosine: null, keyword_score: 0.7 } });
    expect(outside.reason).toBe("outside_fetch_window");
    expect(outside.message).toContain("its BM25 is 0.70");
    expect(ask("x", { recall: recallOf({ degraded: true }), computed: { raw_cosine: null, keyword_score: 0 } }).reason).toBe(
      "no_keyword_match",
    );
  });

  it("semantic mode says whether the arm fetched fewer than its window", () => {
    const semantic = recallOf({
      searchMode: "semantic",
      candidates: list(
        [
          ["a", 0.9, null],
          ["b", 0.8, null],
        ],
        1,
      ),
      pageIds: ["a"],
    });
    const answer = ask("x", { recall: semantic, computed: { raw_cosine: 0.2, keyword_score: null } });
    expect(answer.reason).toBe("outside_fetch_window");
    expect(answer.message).toContain("the semantic arm fewer");
    expect(answer.keyword_score).toBeNull();
  });
});
