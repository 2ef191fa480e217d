import { describe, expect, it } from "vitest";
import { armCounts, armRanks, type RankedCandidate } from "./arm-ranks";
import { buriedHitNotices, MAX_NOTICES_PER_KIND } from "./notices";

/** A constructed merged list: [id, raw cosine, BM25, hybrid], ranks in order, the first `pool` in the pool. */
function list(rows: [string, number | null, number | null, number | null][], pool: number): RankedCandidate[] {
  return rows.map(([memory_id, raw_cosine, keyword_score, hybrid_score], i) => ({
    memory_id,
    rank: i + 1,
    raw_cosine,
    keyword_score,
    hybrid_score,
    in_pool: i < pool,
    returned: i < pool,
  }));
}

// The q-006 shape: keyword-matching memories fill the pool, the best cosine (m-best) has no BM25
// because the keyword arm's window (4 here) was full without it.
const Q006 = list(
  [
    ["m1", 0.49, 3.0, 0.98],
    ["m2", 0.45, 2.8, 0.92],
    ["m3", null, 2.5, 0.33],
    ["m-best", 0.54, null, 0.6],
    ["m5", 0.3, 2.2, 0.3],
    ["m6", 0.2, null, 0.22],
  ],
  3,
);

describe("armRanks", () => {
  it("ranks each arm by its own score, null where the arm did not fetch the memory", () => {
    const ranks = armRanks(Q006);
    expect(ranks.get("m-best")).toEqual({ semantic: 1, keyword: null, merged: 4 });
    expect(ranks.get("m1")).toEqual({ semantic: 2, keyword: 1, merged: 1 });
    expect(ranks.get("m3")).toEqual({ semantic: null, keyword: 3, merged: 3 });
    expect(ranks.get("m6")).toEqual({ semantic: 5, keyword: null, merged: 6 });
  });

  it("breaks keyword ties by id ascending (the keyword arm's order) and cosine ties by merged rank", () => {
    const ranks = armRanks(
      list(
        [
          ["b", 0.5, 1, 1],
          ["a", 0.5, 1, 0.9],
        ],
        2,
      ),
    );
    expect(ranks.get("a")).toEqual({ semantic: 2, keyword: 1, merged: 2 });
    expect(ranks.get("b")).toEqual({ semantic: 1, keyword: 2, merged: 1 });
  });

  it("orders by the rank field, whatever the order of the array", () => {
    const shuffled = [...Q006].reverse();
    expect(armRanks(shuffled)).toEqual(armRanks(Q006));
  });

  it("counts the hits each arm handed the merge", () => {
    expect(armCounts(Q006)).toEqual({ semantic: 5, keyword: 4 });
    expect(armCounts([])).toEqual({ semantic: 0, keyword: 0 });
  });
});

describe("buriedHitNotices", () => {
  it("names the best cosine outside the pool, its arm ranks, and the full keyword window as the cause", () => {
    const notices = buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 4 });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: "buried_best_hit",
      memory_id: "m-best",
      raw_cosine: 0.54,
      pool_top_cosine: 0.49,
      keyword_score: null,
      computed_keyword_score: null,
      cause: "keyword_outside_fetch_window",
      ranks: { semantic: 1, keyword: null, merged: 4 },
    });
    expect(notices[0]!.message).toContain(
      "m-best has the highest raw cosine of all candidates (0.540, above the pool's top of 0.490)",
    );
    expect(notices[0]!.message).toContain("rank 4, outside the pool of 3");
    expect(notices[0]!.message).toContain("fetch window");
  });

  it("shows the BM25 computed for display, marked as not used by the merge", () => {
    const [notice] = buriedHitNotices({
      searchMode: "hybrid",
      candidates: Q006,
      fetchSize: 4,
      computedKeyword: new Map([["m-best", 1.16]]),
    });
    expect(notice).toMatchObject({ computed_keyword_score: 1.16, keyword_score: null, cause: "keyword_outside_fetch_window" });
    expect(notice!.message).toContain("its BM25 is 1.16 (computed for display, not used by the merge)");
  });

  it("says 'no keyword match' when the computed BM25 is 0, even with a full window", () => {
    const [notice] = buriedHitNotices({
      searchMode: "hybrid",
      candidates: Q006,
      fetchSize: 4,
      computedKeyword: new Map([["m-best", 0]]),
    });
    expect(notice).toMatchObject({ cause: "no_keyword_match", computed_keyword_score: 0 });
  });

  it("says 'no keyword match' when the keyword arm fetched fewer hits than its window (it returned every match)", () => {
    const [notice] = buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 40 });
    expect(notice).toMatchObject({ cause: "no_keyword_match" });
    expect(notice!.message).toContain("matches none of the query's keywords");
  });

  it("blames a weaker BM25 when the keyword arm did fetch the buried memory", () => {
    const rows = list(
      [
        ["m1", 0.4, 5, 1],
        ["m2", 0.6, 0.5, 0.64],
      ],
      1,
    );
    const [notice] = buriedHitNotices({ searchMode: "hybrid", candidates: rows, fetchSize: 4 });
    expect(notice).toMatchObject({ memory_id: "m2", cause: "weaker_keyword_score", keyword_score: 0.5 });
    expect(notice!.message).toContain("its BM25 (0.50) is weaker");
  });

  it("blames the reranker on a reranked pool", () => {
    const [notice] = buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 4, reranked: true });
    expect(notice).toMatchObject({ cause: "reranked" });
  });

  it("says nothing when the pool holds the best cosine, or on a tie with the pool's top (strictly higher only)", () => {
    const rows = list(
      [
        ["m1", 0.6, 3, 1],
        ["m2", 0.6, null, 0.6],
        ["m3", 0.5, null, 0.5],
      ],
      1,
    );
    expect(buriedHitNotices({ searchMode: "hybrid", candidates: rows, fetchSize: 2 })).toEqual([]);
  });

  it("says nothing for an empty list, an empty pool, or a list without cosines (keyword mode)", () => {
    expect(buriedHitNotices({ searchMode: "hybrid", candidates: [], fetchSize: 4 })).toEqual([]);
    const noPool = Q006.map((c) => ({ ...c, in_pool: false }));
    expect(buriedHitNotices({ searchMode: "hybrid", candidates: noPool, fetchSize: 4 })).toEqual([]);
    const keywordOnly = list(
      [
        ["a", null, 3, null],
        ["b", null, 2, null],
      ],
      1,
    );
    expect(buriedHitNotices({ searchMode: "keyword", candidates: keywordOnly, fetchSize: 4 })).toEqual([]);
  });

  it("semantic mode cannot bury (the pool is the top cosines), and says nothing", () => {
    const rows = list(
      [
        ["a", 0.9, null, null],
        ["b", 0.8, null, null],
        ["c", 0.7, null, null],
      ],
      2,
    );
    expect(buriedHitNotices({ searchMode: "semantic", candidates: rows, fetchSize: 4 })).toEqual([]);
  });

  it("a pool without any cosine (keyword-only hits on top) buries every outside cosine, best first, and calls only the best 'the highest'", () => {
    const rows = list(
      [
        ["k1", null, 4, 0.4],
        ["s2", 0.3, null, 0.33],
        ["s1", 0.5, null, 0.3],
      ],
      1,
    );
    const notices = buriedHitNotices({ searchMode: "hybrid", candidates: rows, fetchSize: 1 });
    expect(notices.map((n) => n.memory_id)).toEqual(["s1", "s2"]);
    expect(notices[0]!.pool_top_cosine).toBeNull();
    expect(notices[0]!.message).toContain("above the pool's top of none");
    expect(notices[0]!.message).toContain("the highest raw cosine of all candidates");
    expect(notices[1]!.message).toContain("a higher raw cosine than the pool's top");
  });

  it(`caps each kind at ${MAX_NOTICES_PER_KIND}, keeping the highest cosines`, () => {
    const rows = list(
      [
        ["top", 0.1, 9, 1] as [string, number | null, number | null, number | null],
        ...Array.from({ length: 12 }, (_, i) => [`b${i}`, 0.2 + i / 100, null, 0.5 - i / 100] as [string, number, null, number]),
      ],
      1,
    );
    const notices = buriedHitNotices({ searchMode: "hybrid", candidates: rows, fetchSize: 1 });
    expect(notices).toHaveLength(MAX_NOTICES_PER_KIND);
    expect(notices.map((n) => n.memory_id)).toEqual(["b11", "b10", "b9", "b8", "b7"]);
  });

  describe("keyword_outside_fetch_window", () => {
    // m6 (rank 6) has a computed BM25 that, normalized by the arm's max (3.0) and weighted 0.4,
    // lifts its hybrid 0.22 past the pool's floor 0.33: it lost its place only to the window.
    it("is said for a memory the window missed that would have entered the pool with its BM25", () => {
      const notices = buriedHitNotices({
        searchMode: "hybrid",
        candidates: Q006,
        fetchSize: 4,
        computedKeyword: new Map([
          ["m-best", 1.16],
          ["m6", 1.0],
        ]),
      });
      expect(notices.map((n) => [n.kind, n.memory_id])).toEqual([
        ["buried_best_hit", "m-best"],
        ["keyword_outside_fetch_window", "m6"],
      ]);
      expect(notices[1]).toMatchObject({ keyword_score: null, computed_keyword_score: 1.0, ranks: { keyword: null, merged: 6 } });
      expect(notices[1]!.message).toContain("not used by the merge");
      expect(notices[1]!.message).toContain("would have entered the pool");
    });

    it("is not said when the BM25 would not have lifted it into the pool, is 0, or when the pool was reranked", () => {
      const small = new Map([["m6", 0.1]]); // 0.22 + 0.1/3 × 0.4 = 0.233 < 0.33
      expect(
        buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 4, computedKeyword: small }).map((n) => n.kind),
      ).toEqual(["buried_best_hit"]);
      const zero = new Map([["m6", 0]]);
      expect(buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 4, computedKeyword: zero })).toHaveLength(1);
      const big = new Map([["m6", 3]]);
      expect(
        buriedHitNotices({ searchMode: "hybrid", candidates: Q006, fetchSize: 4, computedKeyword: big, reranked: true }).map(
          (n) => n.kind,
        ),
      ).toEqual(["buried_best_hit"]);
    });

    it("uses the merge's keyword weight", () => {
      const withWeight = (keywordWeight: number) =>
        buriedHitNotices({
          searchMode: "hybrid",
          candidates: Q006,
          fetchSize: 4,
          computedKeyword: new Map([["m6", 1.0]]),
          keywordWeight,
        }).filter((n) => n.kind === "keyword_outside_fetch_window").length;
      expect(withWeight(0.4)).toBe(1);
      expect(withWeight(0.2)).toBe(0); // 0.22 + 1/3 × 0.2 = 0.287 < 0.33
    });

    it("is hybrid-only", () => {
      const notices = buriedHitNotices({
        searchMode: "semantic",
        candidates: Q006,
        fetchSize: 4,
        computedKeyword: new Map([["m6", 1.0]]),
      });
      expect(notices.every((n) => n.kind !== "keyword_outside_fetch_window")).toBe(true);
    });
  });
});
