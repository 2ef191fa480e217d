import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsQuerySchema, type InsightsQuery } from "@/lib/insights/schema";
import { getInsights } from "@/lib/insights/server/sql";
import type { Level } from "@/lib/recall/confidence";
import { HistoryQuerySchema } from "@/lib/recall-log/history";
import { countRecalls } from "@/lib/recall-log/server/history-count";
import { listRecalls } from "@/lib/recall-log/server/history-list";
import { insertRecalls } from "@/lib/recall-log/server/repository";
import { fixtureRow, type FixtureRecall } from "./fixture";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * The store's verdict in History and Insights: each recall as its store judged it when
 * it was logged — the profile's level where a profile judged it, else the reference level — with
 * the calibrated probability History shows beside it, read from the logged `profile_confidence`.
 * On both databases, against counts worked out by hand below.
 *
 * | recall | hour (2025-03-01, UTC) | reference level | profile → level | logged probability | verdict |
 * |---|---|---|---|---|---|
 * | V1 | 09 | high | fitted → low | 0.21 | low |
 * | V2 | 09 | moderate | fitted → high | 0.93 | high |
 * | V3 | 10 | low (store beta) | (reference) | — | low |
 * | V4 | 10 | none | rules → moderate | none (old shape) | moderate |
 * | V5 | 11 | high | fitted → none | "0.5" (not a number) | none |
 * | V6 | 11 | failed | — | — | — |
 *
 * Every recall is in store alpha but V3 (beta); the selector gpt-x ran on V1 and V3 only.
 */

const gpt = { applied: true as const, model: "gpt-x", kept: 1, dropped: 0, dropped_memory_ids: [] as string[] };

interface Verdict {
  profile?: [string, Level];
  probability?: unknown;
}

const SPECS: [FixtureRecall, Verdict][] = [
  [
    { name: "V1", at: "2025-03-01T09:10:00Z", store: "alpha", level: "high", selector: gpt, page: ["m1"] },
    { profile: ["fitted", "low"], probability: 0.21 },
  ],
  [
    { name: "V2", at: "2025-03-01T09:40:00Z", store: "alpha", level: "moderate", selector: null, page: ["m1"] },
    { profile: ["fitted", "high"], probability: 0.93 },
  ],
  [{ name: "V3", at: "2025-03-01T10:10:00Z", store: "beta", level: "low", selector: gpt, page: ["m1"] }, {}],
  [
    { name: "V4", at: "2025-03-01T10:40:00Z", store: "alpha", level: "none", selector: null, page: ["m1"] },
    { profile: ["rules", "moderate"] },
  ],
  [
    { name: "V5", at: "2025-03-01T11:10:00Z", store: "alpha", level: "high", selector: null, page: ["m1"] },
    { profile: ["fitted", "none"], probability: "0.5" },
  ],
  [{ name: "V6", at: "2025-03-01T11:40:00Z", store: "alpha", level: null, selector: null, page: [] }, {}],
];

const FROM = new Date("2025-03-01T09:00:00Z");
const TO = new Date("2025-03-01T12:00:00Z");
const query = (q: Partial<InsightsQuery> = {}): InsightsQuery => ({ from: FROM, to: TO, bucket: "hour", tz: "UTC", ...q });
const mixOf = (j: { high: number; moderate: number; low: number; none: number }) => [j.high, j.moderate, j.low, j.none];

describe.each(DATABASE_KINDS)("the store's verdict in History and Insights on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    const rows = SPECS.map(([spec]) => fixtureRow(spec));
    await insertRecalls(prisma, rows);
    // Set after the insert: the update trigger moves each recall to its profile's rollup keys.
    for (const [i, [spec, verdict]] of SPECS.entries()) {
      const id = rows[i]!.id;
      ids.set(spec.name, id);
      if (!verdict.profile) continue;
      const [name, level] = verdict.profile;
      const block = {
        profile: name,
        level,
        trace: [],
        thresholds: {},
        pool_size: null,
        ...(verdict.probability !== undefined ? { probability: verdict.probability } : {}),
      };
      await prisma.$executeRaw`UPDATE recalls SET profile_name = ${name}, profile_level = ${level},
        profile_confidence = ${JSON.stringify(block)}::jsonb WHERE id = ${id}::uuid`;
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  const names = (list: readonly string[]) => list.map((id) => [...ids.entries()].find(([, v]) => v === id)?.[0]);

  it("lists each recall with the probability its profile logged, and none where there is no number", async () => {
    const page = await listRecalls(prisma, HistoryQuerySchema.parse({}));
    const byName = new Map(page.items.map((item) => [names([item.id])[0], item]));
    expect(byName.get("V1")).toMatchObject({
      profile_name: "fitted",
      profile_level: "low",
      level: "high",
      profile_probability: 0.21,
    });
    expect(byName.get("V2")!.profile_probability).toBe(0.93);
    expect(byName.get("V3")).toMatchObject({ profile_name: null, profile_probability: null });
    expect(byName.get("V4")).toMatchObject({ profile_name: "rules", profile_probability: null });
    expect(byName.get("V5")).toMatchObject({ profile_name: "fitted", profile_probability: null });
    expect(byName.get("V6")).toMatchObject({ status: "error", profile_probability: null });
  });

  it("filters History by the verdict's level and splits the count by it", async () => {
    const listed = async (params: Record<string, string>) =>
      names((await listRecalls(prisma, HistoryQuerySchema.parse(params))).items.map((item) => item.id)).sort();
    expect(await listed({ verdict: "low" })).toEqual(["V1", "V3"]);
    expect(await listed({ verdict: "high,moderate" })).toEqual(["V2", "V4"]);
    expect(await listed({ verdict: "none" })).toEqual(["V5"]);
    expect(await listed({ level: "high" })).toEqual(["V1", "V5"]); // the reference level, as before
    expect(await listed({ verdict: "low", level: "high" })).toEqual(["V1"]);
    const count = await countRecalls(prisma, {});
    expect(count.by_verdict).toEqual({ high: 1, moderate: 1, low: 2, none: 1, unknown: 1 });
    expect(count.by_level).toEqual({ high: 2, moderate: 1, low: 1, none: 1, unknown: 1 });
  });

  it("leads Insights' judges with the verdict, summed over every judge's own recalls", async () => {
    const { judges } = await getInsights(prisma, query());
    expect(judges.map((j) => [j.judge, j.profile, j.recalls])).toEqual([
      ["verdict", null, 5],
      ["reference", null, 5],
      ["profile", "fitted", 3],
      ["profile", "rules", 1],
    ]);
    expect(mixOf(judges[0]!)).toEqual([1, 1, 2, 1]);
    expect(judges[0]!.series.map((b) => [b.local_start, ...mixOf(b)])).toEqual([
      ["2025-03-01T09:00", 1, 0, 1, 0],
      ["2025-03-01T10:00", 0, 1, 1, 0],
      ["2025-03-01T11:00", 0, 0, 0, 1],
    ]);
    expect(mixOf(judges[1]!)).toEqual([2, 1, 1, 1]);
  });

  it("counts each store's and each selector model's weak hits by the verdict beside the reference rules'", async () => {
    const answer = await getInsights(prisma, query());
    const alpha = answer.by_store.find((s) => s.store === "alpha")!;
    // V1 low, V2 high, V4 moderate, V5 none (V6 failed): 2 of 4 weak; by the reference rules 1 of 4 (V4 none).
    expect(alpha.verdict).toEqual({ high: 1, moderate: 1, low: 1, none: 1, weak_hit_rate: 0.5 });
    expect(alpha.weak_hit_rate).toBe(0.25);
    expect(answer.by_store.find((s) => s.store === "beta")!.verdict).toEqual({
      high: 0,
      moderate: 0,
      low: 1,
      none: 0,
      weak_hit_rate: 1,
    });
    // gpt-x ran on V1 (verdict low, reference high) and V3 (low both ways).
    const gptX = answer.by_model.find((m) => m.selector_model === "gpt-x")!;
    expect(gptX.verdict).toEqual({ high: 0, moderate: 0, low: 2, none: 0, weak_hit_rate: 1 });
    expect(gptX.weak_hit_rate).toBe(0.5);
  });

  it("filters Insights by the verdict as History does, the same from the rollups as from the recalls", async () => {
    const weak = await getInsights(prisma, query({ verdict: ["low", "none"] }));
    expect(weak.totals.recalls).toBe(3); // V1, V3, V5
    expect(weak.filters.verdict).toEqual(["low", "none"]);
    expect(mixOf(weak.judges[0]!)).toEqual([0, 0, 2, 1]);
    expect(mixOf(weak.judges[1]!)).toEqual([2, 0, 1, 0]); // their reference levels: high, low, high
    for (const q of [
      query({ verdict: ["low", "none"] }),
      query({ verdict: ["moderate"], from: new Date("2025-03-01T09:20:00Z") }),
      query({ verdict: ["high"], profile: "fitted" }),
    ]) {
      expect(await getInsights(prisma, q)).toEqual(await getInsights(prisma, q, { rollups: false }));
    }
    expect((await getInsights(prisma, query({ verdict: ["moderate"] }))).totals.recalls).toBe(1); // V4, judged by rules
  });

  it("reads the verdict filter with History's schema", () => {
    const parse = insightsQuerySchema(() => TO).safeParse;
    expect(parse({ verdict: "LOW, none" })).toMatchObject({ success: true, data: { verdict: ["low", "none"] } });
    const bad = parse({ verdict: "likely" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["verdict"] });
  });
});
