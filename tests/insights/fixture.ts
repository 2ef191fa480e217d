import { randomUUID } from "node:crypto";
import type { Level } from "@/lib/recall/confidence";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import { recallRow } from "@/lib/recall-log/server/repository";
import type { LoggedConfidence, LoggedRequest } from "@/lib/recall-log/types";

/**
 * A small log whose insights are counted by hand (tests/insights/insights.test.ts says what each
 * recall contributes). Times are UTC; the interesting zone is America/New_York (UTC−5 in
 * January), where 2025-01-10T03:30Z is still the evening of the 9th.
 */
export interface FixtureRecall {
  name: string;
  at: string;
  store: string;
  /** null: the recall failed (status error). */
  level: Level | null | "unknown";
  selector: IngestedSelectorBlock | null;
  /** The result page, in rank order. */
  page: string[];
  /** Every id the selector removed (the console logs all of them; the block lists ≤ 20). */
  allDropped?: string[];
}

export const summaryOf = (memoryId: string) => `Memory ${memoryId}`;

const c = (n: number) => `c${String(n).padStart(2, "0")}`;
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => c(a + i));

export const FIXTURE: FixtureRecall[] = [
  // NY Jan 9 01:00 — top kept, a4 dropped.
  {
    name: "R1",
    at: "2025-01-09T06:00:00Z",
    store: "alpha",
    level: "high",
    selector: { applied: true, model: "gpt-x", kept: 3, dropped: 1, dropped_memory_ids: ["a4"] },
    page: ["a1", "a2", "a3", "a4"],
  },
  // NY Jan 9 07:10 — high, and the top hit (a1) dropped: a disagreement.
  {
    name: "R2",
    at: "2025-01-09T12:10:00Z",
    store: "alpha",
    level: "high",
    selector: { applied: true, model: "gpt-x", kept: 2, dropped: 1, dropped_memory_ids: ["a1"] },
    page: ["a1", "a2", "a3"],
  },
  // NY Jan 9 10:00 — low, selector kept everything: a disagreement.
  {
    name: "R3",
    at: "2025-01-09T15:00:00Z",
    store: "beta",
    level: "low",
    selector: { applied: true, model: "score-gap", kept: 3, dropped: 0, dropped_memory_ids: [] },
    page: ["b1", "b2", "b3"],
  },
  // NY Jan 9 22:30 (UTC Jan 10) — selector did not run.
  {
    name: "R4",
    at: "2025-01-10T03:30:00Z",
    store: "beta",
    level: "none",
    selector: { applied: false, reason: "no_clear_gap" },
    page: ["b1", "b2"],
  },
  // NY Jan 9 23:59 — failed: volume only.
  { name: "R5", at: "2025-01-10T04:59:00Z", store: "alpha", level: null, selector: null, page: [] },
  // NY Jan 10 00:00 — 25 results, 22 dropped: the block lists the first 20 (c04…c23).
  {
    name: "R6",
    at: "2025-01-10T05:00:00Z",
    store: "alpha",
    level: "moderate",
    selector: { applied: true, model: "gpt-x", kept: 3, dropped: 22, dropped_memory_ids: range(4, 23) },
    page: range(1, 25),
    allDropped: range(4, 25),
  },
  // NY Jan 10 09:00 — an ingested page of kept results only; 3 dropped, 2 listed (b9 on no page).
  {
    name: "R7",
    at: "2025-01-10T14:00:00Z",
    store: "beta",
    level: "high",
    selector: { applied: true, model: "score-gap", kept: 2, dropped: 3, dropped_memory_ids: ["b3", "b9"] },
    page: ["b1", "b2"],
  },
  // NY Jan 11 05:00 — selector off.
  {
    name: "R8",
    at: "2025-01-11T10:00:00Z",
    store: "alpha",
    level: "none",
    selector: { applied: false, reason: "disabled" },
    page: ["a1"],
  },
  // NY Jan 11 07:00 — applied, but the block states no counts (not in the drop rate).
  {
    name: "R12",
    at: "2025-01-11T12:00:00Z",
    store: "beta",
    level: "moderate",
    selector: { applied: true, model: "gpt-x" },
    page: ["b5"],
  },
  // NY Jan 11 08:00 — no confidence block, no selector block.
  { name: "R13", at: "2025-01-11T13:00:00Z", store: "alpha", level: "unknown", selector: null, page: ["a2"] },
  // NY Jan 11 15:00
  {
    name: "R9",
    at: "2025-01-11T20:00:00Z",
    store: "beta",
    level: "low",
    selector: { applied: true, model: "gpt-x", kept: 2, dropped: 2, dropped_memory_ids: ["b3", "b4"] },
    page: ["b1", "b2", "b3", "b4"],
  },
  // Outside the range [Jan 9 00:00, Jan 12 00:00) New York time.
  {
    name: "R10",
    at: "2025-01-12T06:00:00Z",
    store: "alpha",
    level: "high",
    selector: { applied: true, model: "gpt-x", kept: 0, dropped: 1, dropped_memory_ids: ["a1"] },
    page: ["a1"],
  },
  {
    name: "R11",
    at: "2025-01-09T04:00:00Z",
    store: "beta",
    level: "low",
    selector: { applied: true, model: "gpt-x", kept: 0, dropped: 1, dropped_memory_ids: ["b1"] },
    page: ["b1"],
  },
];

/** The range the hand counts are for: three New York days. */
export const NY_FROM = new Date("2025-01-09T05:00:00Z");
export const NY_TO = new Date("2025-01-12T05:00:00Z");

export function fixtureRow(spec: FixtureRecall, id: string = randomUUID()) {
  const request: LoggedRequest = {
    store: spec.store,
    query: `question ${spec.name}`,
    k: Math.max(spec.page.length, 1),
    search_mode: "hybrid",
    use_rerank: false,
    selector: spec.selector?.applied ? (spec.selector.model === "score-gap" ? "gap" : "llm") : "off",
  };
  const base = { id, createdAt: new Date(spec.at), source: "ingest" as const, request, latencyMs: 10 };
  if (spec.level === null) {
    return recallRow({ ...base, error: { code: "store_unavailable", message: "The store is down.", status: 502 } });
  }
  const results = spec.page.map((memoryId, rank) => ({
    memory_id: memoryId,
    summary: summaryOf(memoryId),
    score: 0.9 - rank / 100,
  }));
  const confidence =
    spec.level === "unknown"
      ? null
      : ({
          level: spec.level,
          top_score: 0.7,
          prominence: 0.4,
          relative_margin: 2,
          result_count: results.length,
          rationale: "fixture",
          background_mean: 0.5,
          background_std: 0.05,
          basis: "semantic",
          thresholds: "default",
          trace: [],
        } as unknown as LoggedConfidence);
  return recallRow({
    ...base,
    outcome: {
      results,
      confidence,
      selector: spec.selector,
      ...(spec.allDropped ? { droppedIds: spec.allDropped } : {}),
      candidates: null,
      timings: {},
    },
  });
}
