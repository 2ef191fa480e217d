import { describe, expect, it } from "vitest";
import type { LoggedCandidate, LoggedConfidence } from "@/lib/recall-log/types";
import {
  COMPARE_LANE_Y,
  defaultCompareMetric,
  layoutCompareLabels,
  prepareComparison,
  rankChanges,
  type CompareInput,
} from "./compare-recalls";

interface C {
  id: string;
  cos?: number | null;
  kw?: number | null;
  hy?: number | null;
  pool?: boolean;
  page?: boolean;
  dropped?: boolean;
}

function cands(list: readonly C[]): LoggedCandidate[] {
  return list.map((c, i) => ({
    memory_id: c.id,
    summary: `summary of ${c.id}`,
    rank: i + 1,
    raw_cosine: c.cos ?? null,
    keyword_score: c.kw ?? null,
    hybrid_score: c.hy ?? null,
    in_pool: c.pool ?? true,
    returned: c.page ?? c.pool ?? true,
    dropped: c.dropped ?? false,
  }));
}

function confidence(level: LoggedConfidence["level"], top: number, mean: number, pool: number): LoggedConfidence {
  return {
    level,
    top_score: top,
    prominence: (top - mean) / mean,
    relative_margin: 1,
    result_count: pool,
    rationale: "",
    background_mean: mean,
    background_std: 0.05,
    basis: "semantic",
  } as LoggedConfidence;
}

function recall(
  id: string,
  list: readonly C[] | null,
  opts: { k?: number; mode?: "hybrid" | "semantic" | "keyword"; query?: string; level?: LoggedConfidence["level"] } = {},
): CompareInput {
  const candidates = list === null ? null : cands(list);
  const page = (candidates ?? []).filter((c) => c.returned && !c.dropped);
  const dropped = (candidates ?? []).filter((c) => c.dropped);
  const row = (c: LoggedCandidate) => ({
    memory_id: c.memory_id,
    summary: c.summary ?? "",
    score: c.hybrid_score ?? 0,
    rank: c.rank,
  });
  return {
    id,
    created_at: "2026-12-01T12:00:00.000Z",
    store: "embedded",
    status: "ok",
    request: {
      store: "embedded",
      query: opts.query ?? "what is Maya allergic to?",
      k: opts.k ?? 5,
      search_mode: opts.mode ?? "hybrid",
      use_rerank: false,
      selector: "off",
    },
    results: page.map(row),
    dropped_results: dropped.map((c) => ({ ...row(c), dropped: true })),
    confidence: confidence(opts.level ?? "low", 0.5, 0.4, page.length),
    candidates,
  };
}

describe("rankChanges", () => {
  it("gives each memory its rank on both sides, with the move and whether it changed page", () => {
    const a = recall("A", [
      { id: "m1", hy: 0.9, cos: 0.5 },
      { id: "m2", hy: 0.8, cos: 0.45 },
      { id: "m3", hy: 0.7, cos: 0.6, pool: false },
    ]);
    const b = recall("B", [
      { id: "m3", hy: 0.95, cos: 0.6 },
      { id: "m1", hy: 0.9, cos: 0.5 },
      { id: "m4", hy: 0.3, cos: 0.2, pool: false },
    ]);
    const rows = rankChanges(a, b);
    expect(rows.map((r) => r.memoryId)).toEqual(["m1", "m3", "m2", "m4"]);
    const byId = Object.fromEntries(rows.map((r) => [r.memoryId, r]));
    expect(byId.m3).toMatchObject({
      a: { rank: 3, status: "outside" },
      b: { rank: 1, status: "page" },
      delta: 2,
      change: "up",
      pageChanged: true,
    });
    expect(byId.m1).toMatchObject({ delta: -1, change: "down", pageChanged: false });
    expect(byId.m2).toMatchObject({ b: null, change: "only_a", delta: null, pageChanged: true });
    expect(byId.m4).toMatchObject({ a: null, change: "only_b", pageChanged: false });
  });

  it("reads the page of a store that does not expose its pool, the dropped rows marked", () => {
    const a = recall("A", [
      { id: "m1", hy: 0.9 },
      { id: "m2", hy: 0.8, dropped: true },
    ]);
    const remote = { ...a, id: "R", candidates: null };
    const rows = rankChanges(remote, a);
    expect(rows.find((r) => r.memoryId === "m2")?.a).toMatchObject({ rank: 2, status: "dropped" });
    expect(rows.find((r) => r.memoryId === "m1")).toMatchObject({ change: "same", delta: 0 });
  });
});

describe("prepareComparison", () => {
  const a = recall("A", [
    { id: "m1", hy: 0.9, cos: 0.49 },
    { id: "m2", hy: 0.8, cos: 0.41 },
    { id: "m9", hy: 0.2, cos: 0.537, pool: false },
  ]);
  const b = recall(
    "B",
    [
      { id: "m9", hy: 0.99, cos: 0.537 },
      { id: "m1", hy: 0.9, cos: 0.49 },
      { id: "m2", hy: 0.8, cos: 0.41, pool: false },
    ],
    { k: 20, level: "moderate" },
  );

  it("draws both pools on one raw-cosine axis, one lane each, with each side's top", () => {
    const p = prepareComparison(a, b);
    expect(p.chart).toBe("ok");
    expect(p.metric).toBe("raw_cosine");
    expect(p.points.filter((x) => x.side === "a")).toHaveLength(3);
    for (const pt of p.points) expect(Math.abs(pt.y - COMPARE_LANE_Y[pt.side])).toBeLessThan(0.5);
    const xs = p.points.map((x) => x.x);
    expect(p.domain[0]).toBeLessThanOrEqual(Math.min(...xs));
    expect(p.domain[1]).toBeGreaterThanOrEqual(Math.max(...xs));
    // A's top is among its pool (m9 sits outside A's pool), B's is m9.
    expect(p.points.find((x) => x.side === "a" && x.isTop)?.memoryId).toBe("m1");
    expect(p.points.find((x) => x.side === "b" && x.isTop)?.memoryId).toBe("m9");
    expect(p.markers.map((m) => m.id).sort()).toEqual(["mean-a", "mean-b", "top-a", "top-b"]);
    expect(p.points.every((x) => x.inOther)).toBe(true);
  });

  it("labels the markers apart at phone and laptop widths, one label for two at one value", () => {
    const p = prepareComparison(a, b);
    // Both sides share their background mean (0.4) here: one label names both.
    for (const plotPx of [300, 900]) {
      const layout = layoutCompareLabels(p, plotPx);
      const texts = layout.labels.map((l) => l.text);
      expect(texts).toContain("A mean / B mean 0.400");
      expect(texts).toContain(`A top ${p.markers.find((m) => m.id === "top-a")!.x.toFixed(3)}`);
      for (const [i, x] of layout.labels.entries()) {
        expect(x.left).toBeGreaterThanOrEqual(0);
        expect(x.right).toBeLessThanOrEqual(plotPx);
        for (const y of layout.labels.slice(i + 1)) {
          expect(x.row === y.row && x.left < y.right && y.left < x.right, `${x.text} / ${y.text}`).toBe(false);
        }
      }
    }
  });

  it("says what changed: the level and the pages", () => {
    const p = prepareComparison(a, b);
    expect(p.sides.map((s) => s.settings)).toEqual(["k=5 · hybrid", "k=20 · hybrid"]);
    expect(p.summary).toContain("The level changes from low (A) to moderate (B).");
    expect(p.summary).toContain("1 memory is on B's page and not on A's.");
    expect(p.summary).toContain("1 memory of A's page is not on B's.");
    expect(p.sameQuery).toBe(true);
  });

  it("warns when the queries differ", () => {
    const p = prepareComparison(a, { ...b, request: { ...b.request, query: "something else" } });
    expect(p.sameQuery).toBe(false);
    expect(p.summary[0]).toMatch(/different queries/);
  });

  it("leaves out candidates without a value on the axis, and says so", () => {
    const semantic = recall(
      "S",
      [
        { id: "m1", cos: 0.5 },
        { id: "m2", cos: 0.4 },
      ],
      { mode: "semantic" },
    );
    const keyword = recall(
      "K",
      [
        { id: "m1", kw: 3 },
        { id: "m5", kw: 2 },
      ],
      { mode: "keyword" },
    );
    expect(defaultCompareMetric(semantic, keyword)).toBe("raw_cosine");
    const p = prepareComparison(semantic, keyword);
    expect(p.points.every((x) => x.side === "a")).toBe(true);
    expect(p.notes.join(" ")).toMatch(/2 candidates of B have no Raw cosine value; left out, not drawn at 0/);
    const bm = prepareComparison(semantic, keyword, "bm25");
    expect(bm.metric).toBe("bm25");
    expect(bm.points.every((x) => x.side === "b")).toBe(true);
  });

  it("falls back to an available metric when the one asked has no values", () => {
    const p = prepareComparison(a, b, "bm25");
    expect(p.metric).toBe("raw_cosine");
  });

  it("explains an empty chart when neither store exposes its pool", () => {
    const p = prepareComparison({ ...a, candidates: null }, { ...b, candidates: null });
    expect(p.chart).toBe("empty");
    expect(p.emptyReason).toMatch(/Neither store exposes its candidate pool/);
    expect(p.rankChanges.length).toBeGreaterThan(0);
  });
});
