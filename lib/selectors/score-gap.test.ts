import { describe, expect, it } from "vitest";
import { MAX_DROPPED_IDS, serializeSelector } from "@/lib/recall/selector-block";
import { mulberry32 } from "@/lib/recall/test-support/prng";
import {
  createScoreGapSelector,
  decideScoreGap,
  SCORE_GAP_MIN_COSINES,
  SCORE_GAP_MIN_RELATIVE_DROP,
  SCORE_GAP_MODEL,
  SCORE_GAP_TIE_TOLERANCE,
  scoreGapTrace,
} from "@/lib/selectors/score-gap";
import type { SelectorPageItem } from "@/lib/selectors/types";

/** A page from [id, raw cosine] pairs, in page (rank) order. */
function page(rows: [string, number | null | undefined][]): SelectorPageItem[] {
  return rows.map(([memory_id, raw_cosine], i) => ({
    memory_id,
    summary: `summary of ${memory_id}`,
    score: 1 - i * 0.01,
    ...(raw_cosine === undefined ? {} : { raw_cosine }),
  }));
}

/** A page of ids m1…mn with these cosines. */
const cosPage = (cosines: (number | null)[]) => page(cosines.map((c, i) => [`m${i + 1}`, c]));

describe("score gap: constants", () => {
  it("are the documented bounds", () => {
    expect(SCORE_GAP_MODEL).toBe("score-gap");
    expect(SCORE_GAP_MIN_COSINES).toBe(3);
    expect(SCORE_GAP_MIN_RELATIVE_DROP).toBe(0.15);
    expect(SCORE_GAP_TIE_TOLERANCE).toBe(1e-9);
  });
});

describe("score gap: the rule", () => {
  it("drops the results below the largest relative drop", () => {
    // drops: 0.065, 0.052, 0.436, 0.065 → the cut is between 0.55 and 0.31
    const d = decideScoreGap(cosPage([0.62, 0.58, 0.55, 0.31, 0.29]));
    expect(d).toEqual({
      applied: true,
      keptIds: ["m1", "m2", "m3"],
      droppedIds: ["m4", "m5"],
      cut: {
        above: { memory_id: "m3", raw_cosine: 0.55 },
        below: { memory_id: "m4", raw_cosine: 0.31 },
        relative_drop: (0.55 - 0.31) / 0.55,
      },
      largest_relative_drop: (0.55 - 0.31) / 0.55,
    });
  });

  it("measures the gap in raw-cosine order but reports kept and dropped in page order", () => {
    // page order x, y, z, w; cosine order y .80, w .78, x .30, z .25 → cut after w (drop .615)
    const d = decideScoreGap(
      page([
        ["x", 0.3],
        ["y", 0.8],
        ["z", 0.25],
        ["w", 0.78],
      ]),
    );
    expect(d).toMatchObject({ applied: true, keptIds: ["y", "w"], droppedIds: ["x", "z"] });
  });

  it("uses the relative drop, not the absolute one", () => {
    // absolute drops 0.40, 0.05, 0.25; relative 0.40, 0.083, 0.4545 → the lower, smaller step wins
    const d = decideScoreGap(cosPage([1, 0.6, 0.55, 0.3]));
    expect(d).toMatchObject({ applied: true, keptIds: ["m1", "m2", "m3"], droppedIds: ["m4"] });
    // and it is invariant to the cosine scale
    const scaled = decideScoreGap(cosPage([1, 0.6, 0.55, 0.3].map((c) => c * 0.37)));
    expect(scaled).toMatchObject({ applied: true, droppedIds: ["m4"] });
  });

  it("ignores the store's score: only raw cosines count", () => {
    const rows = cosPage([0.7, 0.68, 0.66]).map((r, i) => ({ ...r, score: [1, 0.1, 0.01][i]! }));
    expect(decideScoreGap(rows)).toMatchObject({ applied: true, cut: null, droppedIds: [] });
  });

  it("always keeps the top cosine, and may drop all but it", () => {
    const d = decideScoreGap(cosPage([0.9, 0.1, 0.09, 0.08]));
    expect(d).toMatchObject({ applied: true, keptIds: ["m1"], droppedIds: ["m2", "m3", "m4"] });
    // the top cosine need not be first on the page
    const d2 = decideScoreGap(cosPage([0.1, 0.09, 0.9, 0.08]));
    expect(d2).toMatchObject({ applied: true, keptIds: ["m3"], droppedIds: ["m1", "m2", "m4"] });
  });

  it("applies with exactly the minimum number of cosines", () => {
    expect(decideScoreGap(cosPage([0.8, 0.7, 0.3]))).toMatchObject({ applied: true, droppedIds: ["m3"] });
  });
});

describe("score gap: bounds", () => {
  it("no result with a cosine → no_cosines", () => {
    expect(decideScoreGap(cosPage([null, null, null]))).toMatchObject({ applied: false, reason: "no_cosines" });
    expect(
      decideScoreGap(
        page([
          ["a", undefined],
          ["b", undefined],
        ]),
      ),
    ).toMatchObject({ applied: false, reason: "no_cosines" });
  });

  it("non-finite cosines count as missing", () => {
    expect(decideScoreGap(cosPage([Number.NaN, Infinity, -Infinity]))).toMatchObject({ applied: false, reason: "no_cosines" });
    expect(decideScoreGap(cosPage([0.9, Number.NaN, 0.1]))).toMatchObject({ applied: false, reason: "too_few_results" });
  });

  it("fewer than 3 cosines → too_few_results, whatever the page size", () => {
    expect(decideScoreGap(cosPage([0.9]))).toMatchObject({ applied: false, reason: "too_few_results" });
    expect(decideScoreGap(cosPage([0.9, 0.1]))).toMatchObject({ applied: false, reason: "too_few_results" });
    const d = decideScoreGap(cosPage([0.9, null, null, null, 0.1, null]));
    expect(d).toMatchObject({ applied: false, reason: "too_few_results" });
    if (!d.applied) expect(d.detail).toContain("Only 2");
  });

  it("largest drop under 0.15 → no clear gap: applied, everything kept, reporting the largest drop", () => {
    const d = decideScoreGap(cosPage([0.5, 0.45, 0.41, 0.4]));
    expect(d).toMatchObject({ applied: true, cut: null, keptIds: ["m1", "m2", "m3", "m4"], droppedIds: [] });
    if (d.applied) expect(d.largest_relative_drop).toBeCloseTo(0.1, 12);
  });

  it("a drop of exactly 0.15 is enough (float noise absorbed); 0.149 is not", () => {
    for (const [a, b] of [
      [1, 0.85],
      [0.4, 0.34],
      [0.2, 0.17],
      [0.6, 0.51],
    ] as const) {
      expect(decideScoreGap(cosPage([a, a, b])), `${a} → ${b}`).toMatchObject({ applied: true, droppedIds: ["m3"] });
    }
    expect(decideScoreGap(cosPage([1, 1, 0.851]))).toMatchObject({ applied: true, cut: null, droppedIds: [] });
  });

  it("all cosines equal → no clear gap, everything kept", () => {
    expect(decideScoreGap(cosPage([0.5, 0.5, 0.5, 0.5]))).toMatchObject({
      applied: true,
      cut: null,
      droppedIds: [],
      largest_relative_drop: 0,
    });
  });

  it("a drop from a positive to a negative cosine counts; drops measured from a cosine ≤ 0 do not", () => {
    // 0.3 → -0.2 is a relative drop of 1.67; -0.2 → -0.25 is not measured
    expect(decideScoreGap(cosPage([0.3, -0.2, -0.25]))).toMatchObject({
      applied: true,
      keptIds: ["m1"],
      droppedIds: ["m2", "m3"],
    });
    expect(decideScoreGap(cosPage([0, -0.1, -0.5]))).toMatchObject({ applied: true, cut: null, droppedIds: [] });
    expect(decideScoreGap(cosPage([-0.1, -0.2, -0.3]))).toMatchObject({ applied: true, cut: null, droppedIds: [] });
    // 0.5 → 0 is a full drop (1.0)
    expect(decideScoreGap(cosPage([0.5, 0.48, 0, 0]))).toMatchObject({ applied: true, droppedIds: ["m3", "m4"] });
  });

  it("an empty page → empty_page; a page with a repeated or empty id → invalid_page", () => {
    expect(decideScoreGap([])).toMatchObject({ applied: false, reason: "empty_page" });
    expect(
      decideScoreGap(
        page([
          ["a", 0.9],
          ["b", 0.5],
          ["a", 0.1],
        ]),
      ),
    ).toMatchObject({ applied: false, reason: "invalid_page" });
    expect(
      decideScoreGap(
        page([
          ["a", 0.9],
          ["", 0.5],
          ["c", 0.1],
        ]),
      ),
    ).toMatchObject({ applied: false, reason: "invalid_page" });
  });
});

describe("score gap: ties", () => {
  it("equal cosines are never split", () => {
    const d = decideScoreGap(cosPage([0.8, 0.8, 0.4, 0.4]));
    expect(d).toMatchObject({ applied: true, keptIds: ["m1", "m2"], droppedIds: ["m3", "m4"] });
    // a tie straddling the would-be cut position stays together on the kept side
    const d2 = decideScoreGap(cosPage([0.9, 0.5, 0.5, 0.5, 0.2]));
    expect(d2).toMatchObject({ applied: true, keptIds: ["m1", "m2", "m3", "m4"], droppedIds: ["m5"] });
  });

  it("two equally large drops: the lower one wins, so the cut keeps more", () => {
    // 1 → 0.5 and 0.5 → 0.25 are both 0.5
    const d = decideScoreGap(cosPage([1, 0.5, 0.25]));
    expect(d).toMatchObject({ applied: true, keptIds: ["m1", "m2"], droppedIds: ["m3"] });
    // decimal inputs whose ratios differ only by float noise still tie
    const d2 = decideScoreGap(cosPage([0.6, 0.3, 0.15, 0.149]));
    expect(d2).toMatchObject({ applied: true, keptIds: ["m1", "m2"], droppedIds: ["m3", "m4"] });
  });

  it("a genuinely larger drop higher up still wins over a smaller lower one", () => {
    const d = decideScoreGap(cosPage([1, 0.4, 0.3, 0.2]));
    // drops 0.6, 0.25, 0.333
    expect(d).toMatchObject({ applied: true, keptIds: ["m1"] });
  });
});

describe("score gap: keyword-only rows", () => {
  it("are kept wherever they sit, and do not take part in the gap", () => {
    const d = decideScoreGap(
      page([
        ["k1", null],
        ["a", 0.7],
        ["k2", null],
        ["b", 0.66],
        ["c", 0.2],
        ["k3", undefined],
      ]),
    );
    expect(d).toMatchObject({ applied: true, keptIds: ["k1", "a", "k2", "b", "k3"], droppedIds: ["c"] });
  });

  it("do not count towards the minimum", () => {
    const d = decideScoreGap(
      page([
        ["k1", null],
        ["k2", null],
        ["a", 0.9],
        ["b", 0.1],
      ]),
    );
    expect(d).toMatchObject({ applied: false, reason: "too_few_results" });
  });
});

describe("score gap: the selector and its block", () => {
  const selector = createScoreGapSelector();

  it("is the gap strategy with model score-gap", () => {
    expect(selector.id).toBe("gap");
    expect(selector.model).toBe("score-gap");
  });

  it("builds an applied block, kept ids in page order, no usage", async () => {
    const run = await selector.select({
      query: "q",
      page: page([
        ["x", 0.3],
        ["y", 0.8],
        ["z", 0.25],
        ["w", 0.78],
      ]),
    });
    expect(run.block).toEqual({ applied: true, model: "score-gap", kept: 2, dropped: 2, dropped_memory_ids: ["x", "z"] });
    expect(serializeSelector(run.block)).toEqual(run.block);
    expect(run.keptIds).toEqual(["y", "w"]);
    expect(run.usage).toBeUndefined();
    expect(run.latency_ms).toBeGreaterThanOrEqual(0);
    expect(Object.keys(run)).not.toContain("usage");
  });

  it("no clear gap: it ran, so applied with 0 dropped and the whole page kept, and a detail line", async () => {
    const rows = cosPage([0.5, 0.49, 0.48]);
    const run = await selector.select({ query: "q", page: rows });
    expect(run.block).toEqual({ applied: true, model: "score-gap", kept: 3, dropped: 0, dropped_memory_ids: [] });
    expect(serializeSelector(run.block)).toEqual(run.block);
    expect(run.keptIds).toEqual(["m1", "m2", "m3"]);
    expect(run.model).toBe("score-gap");
    expect(run.detail).toMatch(/below the 0.15 minimum/);
  });

  it("when it cannot run: reason only, the whole page kept, its model named on the run", async () => {
    const run = await selector.select({ query: "q", page: cosPage([0.9, 0.2]) });
    expect(run.block).toEqual({ applied: false, reason: "too_few_results" });
    expect(run.keptIds).toEqual(["m1", "m2"]);
    expect(run.model).toBe("score-gap");
  });

  it("caps the listed ids at 20 when more are dropped, in page order", async () => {
    const rows = cosPage([0.9, ...Array.from({ length: 29 }, (_, i) => 0.3 - i * 0.001)]);
    const run = await selector.select({ query: "q", page: rows });
    expect(run.block).toMatchObject({ applied: true, kept: 1, dropped: 29 });
    if (run.block.applied) {
      expect(run.block.dropped_memory_ids).toHaveLength(MAX_DROPPED_IDS);
      expect(run.block.dropped_memory_ids).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 2}`));
    }
    expect(run.keptIds).toEqual(["m1"]);
  });
});

describe("score gap: the trace says the signal, the gap, the threshold and the cut", () => {
  const selector = createScoreGapSelector();

  it("names raw cosine as the signal and both sides of the cut with their page ranks", async () => {
    // The case: the page in hybrid order, ranks 3 and 4 below rank 5 by raw cosine.
    const rows = page([
      ["r1", 0.62],
      ["r2", 0.58],
      ["r3", 0.3],
      ["r4", 0.28],
      ["r5", 0.55],
    ]);
    const run = await selector.select({ query: "who is on call this week", page: rows });
    expect(run.keptIds).toEqual(["r1", "r2", "r5"]);
    expect(run.trace).toEqual({
      score_gap: {
        signal: "raw_cosine",
        min_relative_drop: SCORE_GAP_MIN_RELATIVE_DROP,
        participants: 5,
        kept_without_signal: 0,
        largest_relative_drop: (0.55 - 0.3) / 0.55,
        cut: {
          above: { memory_id: "r5", rank: 5, raw_cosine: 0.55 },
          below: { memory_id: "r3", rank: 3, raw_cosine: 0.3 },
          relative_drop: (0.55 - 0.3) / 0.55,
        },
      },
    });
  });

  it("no clear gap: the largest drop and the threshold it missed, no cut", async () => {
    const run = await selector.select({
      query: "q",
      page: page([
        ["a", 0.5],
        ["b", 0.49],
        ["k", null],
        ["c", 0.48],
      ]),
    });
    expect(run.trace?.score_gap).toEqual({
      signal: "raw_cosine",
      min_relative_drop: 0.15,
      participants: 3,
      kept_without_signal: 1,
      largest_relative_drop: (0.49 - 0.48) / 0.49,
      cut: null,
    });
  });

  it("too few cosines: how many took part, nothing measured", async () => {
    const run = await selector.select({ query: "q", page: cosPage([0.9, 0.2]) });
    expect(run.trace?.score_gap).toMatchObject({ participants: 2, largest_relative_drop: null, cut: null });
    expect(scoreGapTrace(cosPage([]), decideScoreGap(cosPage([])))).toMatchObject({ participants: 0 });
  });
});

describe("score gap: invariants over random pages", () => {
  it("holds for 3000 seeded pages", () => {
    const rng = mulberry32(9);
    const seen = new Map<string, number>();
    for (let n = 0; n < 3000; n++) {
      const size = rng.int(0, 30);
      // coarse cosines (one decimal) make ties in cosine and in relative drop common
      const coarse = rng.next() < 0.3;
      // tight pages (all within 12 % of a base) rarely have a clear gap
      const tight = rng.next() < 0.2;
      const base = rng.uniform(0.2, 0.9);
      const rows = page(
        Array.from({ length: size }, (_, i): [string, number | null] => [
          `id${i}`,
          rng.next() < 0.2
            ? null
            : tight
              ? base * (1 - rng.uniform(0, 0.12))
              : coarse
                ? Math.round(rng.uniform(-0.2, 1) * 10) / 10
                : rng.uniform(-0.2, 1),
        ]),
      );
      const d = decideScoreGap(rows);
      seen.set(d.applied ? "applied" : d.reason, (seen.get(d.applied ? "applied" : d.reason) ?? 0) + 1);
      const cosines = rows.filter((r) => typeof r.raw_cosine === "number") as (SelectorPageItem & { raw_cosine: number })[];
      if (!d.applied) {
        if (size === 0) expect(d.reason).toBe("empty_page");
        else if (cosines.length === 0) expect(d.reason).toBe("no_cosines");
        else expect(cosines.length < 3 && d.reason === "too_few_results").toBe(true);
        continue;
      }
      if (d.cut === null) {
        // No clear gap: applied, everything kept.
        seen.set("kept_all", (seen.get("kept_all") ?? 0) + 1);
        expect(cosines.length).toBeGreaterThanOrEqual(3);
        expect(d.keptIds).toEqual(rows.map((r) => r.memory_id));
        expect(d.droppedIds).toEqual([]);
        continue;
      }
      const ids = rows.map((r) => r.memory_id);
      // a partition of the page, each side in page order
      expect([...d.keptIds, ...d.droppedIds].sort()).toEqual([...ids].sort());
      expect(d.keptIds).toEqual(ids.filter((id) => d.keptIds.includes(id)));
      expect(d.droppedIds).toEqual(ids.filter((id) => d.droppedIds.includes(id)));
      // at least one dropped, at least one cosine kept, the top cosine kept
      expect(d.droppedIds.length).toBeGreaterThan(0);
      const top = cosines.reduce((a, b) => (b.raw_cosine > a.raw_cosine ? b : a));
      expect(d.keptIds).toContain(top.memory_id);
      // keyword-only rows kept; every kept cosine above every dropped one; the gap big enough
      for (const r of rows) if (typeof r.raw_cosine !== "number") expect(d.keptIds).toContain(r.memory_id);
      const cos = new Map(cosines.map((r) => [r.memory_id, r.raw_cosine]));
      const lowestKept = Math.min(...d.keptIds.filter((id) => cos.has(id)).map((id) => cos.get(id)!));
      const highestDropped = Math.max(...d.droppedIds.map((id) => cos.get(id)!));
      expect(lowestKept).toBeGreaterThan(highestDropped);
      expect(d.cut.above.raw_cosine === lowestKept).toBe(true); // === : 0 and -0 are the same cosine
      expect(d.cut.below.raw_cosine === highestDropped).toBe(true);
      expect(d.cut.relative_drop + SCORE_GAP_TIE_TOLERANCE).toBeGreaterThanOrEqual(SCORE_GAP_MIN_RELATIVE_DROP);
    }
    // every outcome was exercised
    for (const key of ["applied", "kept_all", "empty_page", "no_cosines", "too_few_results"]) {
      expect(seen.get(key) ?? 0, key).toBeGreaterThan(10);
    }
  });
});
