import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InsightsQuery } from "@/lib/insights/schema";
import { getInsights } from "@/lib/insights/server/sql";
import type { IngestedSelectorBlock } from "@/lib/recall/selector-block";
import { insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import type { LoggedConfidence } from "@/lib/recall-log/types";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Insights under the one meaning of "applied" (lib/selectors/README.md "Selector truth"), on a
 * fixture whose outcomes are counted by hand below: drop rate, selector failure rate (overall and
 * per model), lost-at-least-one, the level resting on a dropped memory at every level, the
 * reasons with their kinds, the series markers where the model or prompt changed, and the
 * label-based rates.
 */
interface Spec {
  name: string;
  at: string;
  level: "high" | "moderate" | "low" | "none";
  page: string[];
  selector: IngestedSelectorBlock;
  /** The strategy's model when not applied (failed or skipped). */
  model?: string;
  prompt?: string;
  labels?: Record<string, boolean>;
}

const applied = (model: string, page: string[], dropped: string[]): IngestedSelectorBlock => ({
  applied: true,
  model,
  kept: page.length - dropped.length,
  dropped: dropped.length,
  dropped_memory_ids: dropped,
});

const SPECS: Spec[] = [
  // 10:00 — score gap cut a4: lost one; the level rests on a1 (kept).
  {
    name: "F1",
    at: "2025-02-01T10:00:00Z",
    level: "high",
    page: ["a1", "a2", "a3", "a4"],
    selector: applied("score-gap", ["a1", "a2", "a3", "a4"], ["a4"]),
    labels: { a1: true, a4: true },
  },
  // 10:10 — score gap, no clear gap: applied, kept all (low → "weak, kept everything").
  {
    name: "F2",
    at: "2025-02-01T10:10:00Z",
    level: "low",
    page: ["a1", "a2", "a3"],
    selector: applied("score-gap", ["a1", "a2", "a3"], []),
  },
  // 11:00 — gpt-x (prompt 1) dropped b1 and b2: the moderate level rests on b1, which it dropped.
  {
    name: "F3",
    at: "2025-02-01T11:00:00Z",
    level: "moderate",
    page: ["b1", "b2", "b3"],
    selector: applied("gpt-x", ["b1", "b2", "b3"], ["b1", "b2"]),
    prompt: "1",
    labels: { b3: false },
  },
  // 11:20 — gpt-x timed out: a failure.
  {
    name: "F4",
    at: "2025-02-01T11:20:00Z",
    level: "high",
    page: ["b1", "b2"],
    selector: { applied: false, reason: "timeout" },
    model: "gpt-x",
    prompt: "1",
    labels: { b1: true },
  },
  // 12:00 — gpt-x under prompt 2 invented an id: a failure, and a prompt change.
  {
    name: "F5",
    at: "2025-02-01T12:00:00Z",
    level: "high",
    page: ["b1", "b2"],
    selector: { applied: false, reason: "unknown_id" },
    model: "gpt-x",
    prompt: "2",
  },
  // 12:30 — gpt-y first used: kept both (none → "weak, kept everything").
  {
    name: "F6",
    at: "2025-02-01T12:30:00Z",
    level: "none",
    page: ["c1", "c2"],
    selector: applied("gpt-y", ["c1", "c2"], []),
    prompt: "2",
    labels: { c1: true },
  },
  // 13:00 — off by choice.
  { name: "F7", at: "2025-02-01T13:00:00Z", level: "low", page: ["d1"], selector: { applied: false, reason: "disabled" } },
  // 13:10 — the score gap had too few cosines: skipped, neither ran nor failed.
  {
    name: "F8",
    at: "2025-02-01T13:10:00Z",
    level: "moderate",
    page: ["d1", "d2"],
    selector: { applied: false, reason: "too_few_results" },
    model: "score-gap",
  },
];

function row(spec: Spec, id: string) {
  const confidence = {
    level: spec.level,
    top_score: 0.7,
    prominence: 0.4,
    relative_margin: 2,
    result_count: spec.page.length,
    rationale: "fixture",
    background_mean: 0.5,
    background_std: 0.05,
    basis: "semantic",
    thresholds: "default",
    trace: [],
  } as unknown as LoggedConfidence;
  return recallRow({
    id,
    createdAt: new Date(spec.at),
    source: "console",
    request: {
      store: "s",
      query: spec.name,
      k: 5,
      search_mode: "hybrid",
      use_rerank: false,
      selector: spec.selector.applied ? (spec.selector.model === "score-gap" ? "gap" : "llm") : "off",
    },
    latencyMs: 5,
    outcome: {
      results: spec.page.map((m, i) => ({ memory_id: m, summary: `Memory ${m}`, score: 0.9 - i / 10 })),
      confidence,
      selector: spec.selector,
      selectorModel: spec.model ?? null,
      selectorPromptVersion: spec.prompt ?? null,
      selectorUsage: { latency_ms: 1 },
      candidates: null,
      timings: {},
    },
  });
}

describe.each(DATABASE_KINDS)("selector failures and markers in insights on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  const q: InsightsQuery = {
    from: new Date("2025-02-01T00:00:00Z"),
    to: new Date("2025-02-02T00:00:00Z"),
    bucket: "hour",
    tz: "UTC",
  };

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    const rows = SPECS.map((spec) => ({ spec, row: row(spec, randomUUID()) }));
    await insertRecalls(
      prisma,
      rows.map((r) => r.row),
    );
    // Labels arrive later, from a person (an UPDATE: the rollups must stay true through it).
    for (const { spec, row: r } of rows) {
      if (!spec.labels) continue;
      await prisma.$executeRawUnsafe(
        `UPDATE recalls SET label_results = $1::jsonb, labeled_at = now(), labeler = 'pm' WHERE id = $2::uuid`,
        JSON.stringify(spec.labels),
        r.id,
      );
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it("counts drop rate, failure rate and lost-at-least-one exactly as by hand", async () => {
    const a = await getInsights(prisma, q);
    expect(a).toEqual(await getInsights(prisma, q, { rollups: false }));
    const t = a.totals;
    // applied F1 F2 F3 F6; failed F4 F5 (tried 6); kept 3+3+1+2, dropped 1+0+2+0; lost F1 F3.
    expect(t).toMatchObject({
      recalls: 8,
      ok: 8,
      applied: 4,
      not_applied: 4,
      selector_failed: 2,
      tried: 6,
      kept: 9,
      dropped: 3,
      lost_any: 2,
    });
    expect(t.drop_rate).toBe(3 / 12);
    expect(t.failure_rate).toBe(2 / 6);
    expect(t.lost_any_rate).toBe(2 / 4);
    // The level rests on a dropped memory once (F3, moderate); kept-everything on weak levels twice (F2, F6).
    expect(t).toMatchObject({
      top_dropped: 1,
      high_top_dropped: 0,
      moderate_top_dropped: 1,
      low_top_dropped: 0,
      none_top_dropped: 0,
      weak_kept_all: 2,
    });
    expect(t.top_dropped_rate).toBe(1 / 4);
    expect(a.disagreements.top_dropped.items.map((i) => [i.query, i.level, i.top_memory_id])).toEqual([["F3", "moderate", "b1"]]);
  });

  it("gives each model its failure rate, and the reasons with their kinds", async () => {
    const a = await getInsights(prisma, q);
    expect(a.by_model.map((m) => [m.selector_model, m.applied, m.selector_failed, m.tried, m.failure_rate])).toEqual([
      ["gpt-x", 1, 2, 3, 2 / 3],
      ["score-gap", 2, 0, 2, 0],
      ["gpt-y", 1, 0, 1, 0],
    ]);
    expect(a.not_applied_reasons.map((r) => [r.reason, r.kind, r.recalls])).toEqual([
      ["disabled", "off", 1],
      ["timeout", "failed", 1],
      ["too_few_results", "skipped", 1],
      ["unknown_id", "failed", 1],
    ]);
    const gptX = await getInsights(prisma, { ...q, selector_model: "gpt-x" });
    expect(gptX.totals).toMatchObject({ applied: 1, selector_failed: 2, tried: 3 });
  });

  it("marks where a model was first used and where a model's prompt changed", async () => {
    const a = await getInsights(prisma, q);
    expect(a.markers.map((m) => [m.local_start, m.kind, m.selector_model, m.prompt_version])).toEqual([
      ["2025-02-01T11:00", "model", "gpt-x", "1"],
      ["2025-02-01T12:00", "prompt", "gpt-x", "2"],
      ["2025-02-01T12:00", "model", "gpt-y", "2"],
    ]);
    const day = await getInsights(prisma, { ...q, bucket: "day" });
    expect(day.markers).toEqual([]); // one bucket: everything is the starting setup
  });

  it("with labels: dropped a memory labeled relevant, kept only irrelevant ones", async () => {
    // Labeled and applied: F1 (dropped a4, labeled relevant), F3 (kept only b3, labeled not relevant), F6 (neither).
    const { labels } = await getInsights(prisma, q);
    expect(labels).toEqual({
      labeled: 3,
      dropped_relevant: 1,
      dropped_relevant_rate: 1 / 3,
      kept_only_irrelevant: 1,
      kept_only_irrelevant_rate: 1 / 3,
    });
  });
});
