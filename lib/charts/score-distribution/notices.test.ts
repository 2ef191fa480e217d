import { describe, expect, it } from "vitest";
import type { RecallNotice } from "@/lib/recall-log/types";
import { NOTICE_STROKE, noticeTitle, prepareScoreDistribution } from "./index";
import { candidates, view } from "./test-fixtures";
import { missingBm25Of } from "./with-pool";

// The buried-hit shape (q-006): a hybrid pool whose best raw cosine (m4) sits outside the pool,
// with no BM25 because the keyword arm filled its window without it.
const buried = () => {
  const v = view(
    [
      { cos: 0.49, kw: 3.1, hy: 0.9 },
      { cos: 0.45, kw: 2.9, hy: 0.8 },
      { cos: 0.3, kw: 2.5, hy: 0.6 },
      { cos: 0.537, kw: null, hy: 0.2, inPool: false, returned: false },
      { cos: null, kw: 2.0, hy: 0.15, inPool: false, returned: false },
    ],
    "hybrid",
  );
  return {
    ...v,
    notices: [
      {
        kind: "buried_best_hit" as const,
        memory_id: "m4",
        message: "m4 has the best raw cosine (0.537) but sits at rank 4, outside the pool.",
        keyword_score: null,
        computed_keyword_score: 1.16,
      },
      // A kind this build does not know (a newer server): shown by its message.
      { kind: "some_new_kind" as RecallNotice["kind"], message: "Something without a memory." },
    ],
  };
};

describe("notices on the chart", () => {
  it("highlights the memory a notice names and lists every notice", () => {
    const p = prepareScoreDistribution(buried(), "raw_cosine");
    const m4 = p.points.find((pt) => pt.memoryId === "m4");
    expect(m4?.notice).toBe("buried_best_hit");
    expect(m4?.displayBm25).toBe(1.16);
    expect(p.points.filter((pt) => pt.notice !== undefined)).toHaveLength(1);
    expect(p.callouts).toEqual([
      { kind: "buried_best_hit", memoryId: "m4", message: expect.stringContaining("outside the pool"), onChart: true },
      { kind: "some_new_kind", memoryId: null, message: "Something without a memory.", onChart: false },
    ]);
    expect(p.ariaLabel).toContain("Buried best hit (m4)");
  });

  it("lists a notice whose memory is not drawn on this axis as off the chart", () => {
    const v = buried();
    const p = prepareScoreDistribution(
      { ...v, notices: [{ kind: "buried_best_hit" as const, memory_id: "m5", message: "x" }] },
      "raw_cosine",
    );
    expect(p.callouts[0]).toMatchObject({ memoryId: "m5", onChart: false });
  });

  it("is a no-op without notices, and names kinds", () => {
    const v = buried();
    const p = prepareScoreDistribution({ ...v, notices: undefined }, "raw_cosine");
    expect(p.callouts).toEqual([]);
    expect(p.points.some((pt) => pt.notice)).toBe(false);
    expect(noticeTitle("buried_best_hit")).toBe("Buried best hit");
    expect(noticeTitle("some_other_kind")).toBe("Some other kind");
    expect(noticeTitle("keyword_outside_fetch_window")).toBe("BM25 not fetched");
    expect(NOTICE_STROKE).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe("a missing BM25: not fetched, no match, or not run", () => {
  it("says not fetched when the keyword arm filled its window", () => {
    const p = prepareScoreDistribution(buried(), "bm25");
    expect(p.missingBm25).toBe("not_fetched");
    expect(p.note).toMatch(/1 candidate has no BM25 score fetched \(outside the keyword arm's fetch window/);
    expect(p.note).not.toMatch(/no keyword match/);
  });

  it("says no match when the keyword arm ran out of matches", () => {
    const cands = candidates([
      { cos: 0.5, kw: 2 },
      { cos: 0.4, kw: null },
      { cos: 0.3, kw: null },
    ]);
    expect(missingBm25Of(cands, "hybrid")).toBe("no_match");
    expect(missingBm25Of(cands, "semantic")).toBe("not_run");
    expect(missingBm25Of(candidates([{ cos: 0.5 }, { cos: 0.4 }]), undefined)).toBe("not_run");
  });
});

describe("the pool's legend counts the whole pool", () => {
  it("says how many of the pool are drawn as pool points when some are dropped or have no value", () => {
    const v = view(
      [
        { cos: 0.6, kw: 2 },
        { cos: 0.5, kw: null, dropped: true },
        { cos: 0.4, kw: null },
        { cos: 0.3, kw: null },
      ],
      "hybrid",
    );
    const bm25 = prepareScoreDistribution(v, "bm25");
    const pool = bm25.pointLegend.find((i) => i.category === "pool");
    expect(pool?.count).toBe(1);
    expect(pool?.countText).toBe("4 in all: 1 shown as ●, 3 without a value here");
    const cos = prepareScoreDistribution(v, "raw_cosine");
    expect(cos.pointLegend.find((i) => i.category === "pool")?.countText).toBe("4 in all: 3 shown as ●, 1 dropped");
    const whole = prepareScoreDistribution(view([{ cos: 0.6 }, { cos: 0.5 }], "semantic"), "raw_cosine");
    expect(whole.pointLegend.find((i) => i.category === "pool")?.countText).toBe("2");
  });
});
