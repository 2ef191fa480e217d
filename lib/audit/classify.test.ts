import { describe, expect, it } from "vitest";
import {
  bestRanks,
  classifyMemory,
  countClasses,
  duplicateClusters,
  logClasses,
  rankedAbove,
  unreachableModes,
} from "./classify";
import { auditCsv } from "./csv";
import { frequentWords, memoryProbes } from "./probes";
import type { AuditFinding, AuditResult, ProbeRecord } from "./types";

const record = (over: Partial<ProbeRecord>): ProbeRecord => ({
  probe: "summary",
  query: "q",
  mode: "hybrid",
  k: 10,
  page_rank: null,
  merged_rank: null,
  semantic_rank: null,
  keyword_rank: null,
  ...over,
});

describe("probes", () => {
  it("finds the words most summaries share, never a word of one summary", () => {
    const words = frequentWords(["The deploy failed", "the deploy passed", "The cache warmed", "unique zebra"], 2);
    expect(words).toEqual(["the", "deploy"]);
    expect(frequentWords(["alpha beta", "gamma"])).toEqual([]);
  });

  it("makes the summary, distinct and tags probes, each only when it says something new", () => {
    const frequent = new Set(["the", "deploy"]);
    expect(memoryProbes({ summary: "The deploy of billing failed", tags: ["ops", "billing"] }, frequent)).toEqual([
      { kind: "summary", query: "The deploy of billing failed" },
      { kind: "distinct", query: "of billing failed" },
      { kind: "tags", query: "ops billing" },
    ]);
    // No frequent word in it: the distinct probe would repeat the summary; only frequent words: nothing left.
    expect(memoryProbes({ summary: "billing failed", tags: [] }, frequent).map((p) => p.kind)).toEqual(["summary"]);
    expect(memoryProbes({ summary: "the deploy", tags: [] }, frequent).map((p) => p.kind)).toEqual(["summary"]);
  });
});

describe("reachability", () => {
  it("takes the best page rank per mode and names the modes no probe reached", () => {
    const records = [
      record({ mode: "hybrid", page_rank: 3 }),
      record({ mode: "hybrid", k: 5, page_rank: 2 }),
      record({ mode: "semantic" }),
      record({ mode: "keyword", page_rank: 1 }),
    ];
    expect(bestRanks(records)).toEqual({ hybrid: 2, semantic: null, keyword: 1 });
    expect(unreachableModes(records)).toEqual(["semantic"]);
  });

  it("does not judge a mode whose every probe failed", () => {
    expect(
      unreachableModes([record({ mode: "semantic", error: "embedder down" }), record({ mode: "keyword", page_rank: 1 })]),
    ).toEqual([]);
  });

  it("lists who ranked above a memory in the merged list, or the page when it was not fetched", () => {
    const candidates = [
      { memory_id: "b", rank: 2 },
      { memory_id: "a", rank: 1 },
      { memory_id: "c", rank: 3 },
    ];
    expect(rankedAbove("c", candidates, ["a", "b"])).toEqual(["a", "b"]);
    expect(rankedAbove("a", candidates, ["a", "b"])).toEqual([]);
    expect(rankedAbove("z", candidates, ["a", "b"])).toEqual(["a", "b"]);
    expect(rankedAbove("b", null, ["a", "b"])).toEqual(["a"]);
  });
});

describe("log classes", () => {
  const usage = (candidate: number, returned: number, dropped: number) => ({
    candidate,
    returned,
    dropped,
    last_seen: null,
    recall_ids: [],
  });
  it("judges nothing without logged recalls", () => {
    expect(logClasses(null, { min_appearances: 3 }, 0)).toEqual([]);
  });
  it("always buried, always dropped, never recalled, each past the minimum", () => {
    expect(logClasses(null, { min_appearances: 3 }, 5)).toEqual(["never_recalled"]);
    expect(logClasses(usage(4, 0, 0), { min_appearances: 3 }, 5)).toEqual(["always_buried"]);
    expect(logClasses(usage(2, 0, 0), { min_appearances: 3 }, 5)).toEqual([]);
    expect(logClasses(usage(4, 3, 3), { min_appearances: 3 }, 5)).toEqual(["always_dropped"]);
    expect(logClasses(usage(4, 3, 2), { min_appearances: 3 }, 5)).toEqual([]);
  });
});

describe("findings and clusters", () => {
  const finding = (id: string, summary: string, by: string[]): AuditFinding =>
    classifyMemory({
      memory_id: id,
      summary,
      records: [record({ page_rank: 2 })],
      reasons: [],
      shadowedBy: by.map((memory_id) => ({ memory_id, summary: `${memory_id} text`, cosine: 0.97 })),
      log: null,
      logRecalls: 0,
      settings: { min_appearances: 3 },
    })!;

  it("a reachable memory nobody shadows and the log does not flag is no finding", () => {
    expect(finding("a", "x", [])).toBeNull();
  });

  it("links shadowed memories to their shadows, keeps the one nobody shadowed, and counts", () => {
    const findings = [finding("b", "deploy b", ["a"]), finding("c", "deploy c", ["b"]), finding("x", "other", ["y"])];
    const clusters = duplicateClusters(findings);
    expect(clusters.map((c) => c.members.map((m) => m.memory_id))).toEqual([
      ["a", "b", "c"],
      ["x", "y"],
    ]);
    expect(clusters[0]!.keep).toBe("a");
    expect(clusters[0]!.suggestion).toContain("merge b, c into it");
    expect(findings.map((f) => f.shadowed!.cluster)).toEqual([1, 1, 2]);
    expect(countClasses(findings)).toMatchObject({ shadowed: 3, unreachable: 0 });
  });

  it("exports one CSV row per finding, quoting what needs it", () => {
    const findings = [finding("b", 'say "hi", then go', ["a"])];
    const csv = auditCsv({ findings } as AuditResult);
    const lines = csv.trim().split("\n");
    expect(lines[0]).toMatch(/^memory_id,summary,classes,/);
    expect(lines[1]).toContain('"say ""hi"", then go"');
    expect(lines[1]).toContain("a (0.970)");
  });
});
