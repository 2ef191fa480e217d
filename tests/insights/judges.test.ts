import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsQuerySchema, type InsightsQuery } from "@/lib/insights/schema";
import { getDistributions, getInsights } from "@/lib/insights/server/sql";
import type { Level } from "@/lib/recall/confidence";
import { insertRecalls } from "@/lib/recall-log/server/repository";
import { fixtureRow, type FixtureRecall } from "./fixture";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Insights by threshold profile and the numbers behind the levels: the
 * level filters, the level under each judge with its agreement rates, and the percentile bands,
 * against counts and percentiles worked out by hand below, on both databases.
 *
 * P1–P7, UTC days D1 = 2025-02-01, D2 = 2025-02-02:
 *
 * | recall | day | store | level | selector kept/dropped | profile → level | label | top · prominence (scale) |
 * |---|---|---|---|---|---|---|---|
 * | P1 | D1 | alpha | high | 2 / 1 | use-lite → moderate | yes | 0.60 · 0.30 (cosine) |
 * | P2 | D1 | alpha | high | 0 / 3 | use-lite → low | no | 0.50 · 0.20 |
 * | P3 | D1 | alpha | low | 3 / 0 | use-lite → high | yes | 0.40 · 0.10 |
 * | P4 | D1 | alpha | none | 0 / 2 | (reference) | no | 0.30 · 0.05 |
 * | P5 | D2 | alpha | moderate | not run | use-lite → moderate | unsure | 0.70 · 0.50 |
 * | P6 | D2 | alpha | failed | — | — | — | — |
 * | P7 | D2 | beta | low | 1 / 1 | strict → none | — | 8.0 · 1.5 (BM25, keyword) |
 */

interface Extra {
  profile?: [string, Level];
  label?: "yes" | "no" | "unsure";
  top?: number;
  prominence?: number;
  keyword?: boolean;
}

const gpt = (kept: number, dropped: number, ids: string[]) =>
  ({ applied: true, model: "gpt-x", kept, dropped, dropped_memory_ids: ids }) as const;

const SPECS: [FixtureRecall, Extra][] = [
  [
    {
      name: "P1",
      at: "2025-02-01T10:00:00Z",
      store: "alpha",
      level: "high",
      selector: gpt(2, 1, ["m3"]),
      page: ["m1", "m2", "m3"],
    },
    { profile: ["use-lite", "moderate"], label: "yes", top: 0.6, prominence: 0.3 },
  ],
  [
    {
      name: "P2",
      at: "2025-02-01T11:00:00Z",
      store: "alpha",
      level: "high",
      selector: gpt(0, 3, ["m1", "m2", "m3"]),
      page: ["m1", "m2", "m3"],
    },
    { profile: ["use-lite", "low"], label: "no", top: 0.5, prominence: 0.2 },
  ],
  [
    { name: "P3", at: "2025-02-01T12:00:00Z", store: "alpha", level: "low", selector: gpt(3, 0, []), page: ["m1", "m2", "m3"] },
    { profile: ["use-lite", "high"], label: "yes", top: 0.4, prominence: 0.1 },
  ],
  [
    {
      name: "P4",
      at: "2025-02-01T13:00:00Z",
      store: "alpha",
      level: "none",
      selector: gpt(0, 2, ["m1", "m2"]),
      page: ["m1", "m2"],
    },
    { label: "no", top: 0.3, prominence: 0.05 },
  ],
  [
    {
      name: "P5",
      at: "2025-02-02T10:00:00Z",
      store: "alpha",
      level: "moderate",
      selector: { applied: false, reason: "disabled" },
      page: ["m1"],
    },
    { profile: ["use-lite", "moderate"], label: "unsure", top: 0.7, prominence: 0.5 },
  ],
  [{ name: "P6", at: "2025-02-02T11:00:00Z", store: "alpha", level: null, selector: null, page: [] }, {}],
  [
    { name: "P7", at: "2025-02-02T12:00:00Z", store: "beta", level: "low", selector: gpt(1, 1, ["k2"]), page: ["k1", "k2"] },
    { profile: ["strict", "none"], top: 8, prominence: 1.5, keyword: true },
  ],
];

const FROM = new Date("2025-02-01T00:00:00Z");
const TO = new Date("2025-02-03T00:00:00Z");
const query = (q: Partial<InsightsQuery> = {}): InsightsQuery => ({ from: FROM, to: TO, bucket: "day", tz: "UTC", ...q });

const mixOf = (j: { high: number; moderate: number; low: number; none: number }) => [j.high, j.moderate, j.low, j.none];

describe.each(DATABASE_KINDS)("insights by profile on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    const rows = SPECS.map(([spec]) => fixtureRow(spec));
    await insertRecalls(prisma, rows);
    // Set after the insert: the update trigger has to move every recall to its new rollup keys.
    for (const [i, [, extra]] of SPECS.entries()) {
      const id = rows[i]!.id;
      if (extra.profile) {
        await prisma.$executeRaw`UPDATE recalls SET profile_name = ${extra.profile[0]}, profile_level = ${extra.profile[1]} WHERE id = ${id}::uuid`;
      }
      if (extra.label) {
        await prisma.$executeRaw`UPDATE recalls SET label_present = ${extra.label}, labeled_at = now() WHERE id = ${id}::uuid`;
      }
      if (extra.top !== undefined) {
        await prisma.$executeRaw`UPDATE recalls SET top_score = ${extra.top}, prominence = ${extra.prominence ?? null} WHERE id = ${id}::uuid`;
      }
      if (extra.keyword)
        await prisma.$executeRaw`UPDATE recalls SET basis = 'zscore', search_mode = 'keyword' WHERE id = ${id}::uuid`;
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it("gives the level mix under the store's verdict, the reference rules and each profile, with agreement rates", async () => {
    const { judges } = await getInsights(prisma, query());
    expect(judges.map((j) => [j.judge, j.profile])).toEqual([
      ["verdict", null],
      ["reference", null],
      ["profile", "use-lite"],
      ["profile", "strict"],
    ]);
    const [verdict, reference, useLite, strict] = judges;

    // Each recall as its store judged it: P1 moderate, P2 low, P3 high (use-lite), P4 none (reference),
    // P5 moderate (use-lite), P7 none (strict); P6 failed.
    expect(verdict!.recalls).toBe(6);
    expect(mixOf(verdict!)).toEqual([1, 2, 1, 2]);
    // Selector: P1 and P3 worth·kept, P2 and P4 weak·kept none, P7 weak·kept; P5's did not run.
    expect(verdict!.selector).toEqual({ worth_yes: 2, worth_no: 0, weak_yes: 1, weak_no: 2, total: 5, agree: 4, rate: 4 / 5 });
    // Labels: P1 and P3 worth·present, P2 and P4 weak·absent (P5 unsure is left out).
    expect(verdict!.labels).toEqual({ worth_yes: 2, worth_no: 0, weak_yes: 0, weak_no: 2, total: 4, agree: 4, rate: 1 });
    expect(verdict!.series.map((b) => [b.local_start, ...mixOf(b)])).toEqual([
      ["2025-02-01T00:00", 1, 1, 1, 1],
      ["2025-02-02T00:00", 0, 1, 0, 1],
    ]);

    expect(reference!.recalls).toBe(6);
    expect(mixOf(reference!)).toEqual([2, 1, 2, 1]);
    expect(reference!.level_mix).toEqual({ high: 2 / 6, moderate: 1 / 6, low: 2 / 6, none: 1 / 6 });
    // Selector: P1 worth·kept, P2 worth·kept none, P3 and P7 weak·kept, P4 weak·kept none.
    expect(reference!.selector).toEqual({ worth_yes: 1, worth_no: 1, weak_yes: 2, weak_no: 1, total: 5, agree: 2, rate: 2 / 5 });
    // Labels: P1 worth·yes, P2 worth·no, P3 weak·yes, P4 weak·no (P5 unsure is left out).
    expect(reference!.labels).toEqual({ worth_yes: 1, worth_no: 1, weak_yes: 1, weak_no: 1, total: 4, agree: 2, rate: 0.5 });
    expect(reference!.series.map((b) => [b.local_start, ...mixOf(b)])).toEqual([
      ["2025-02-01T00:00", 2, 0, 1, 1],
      ["2025-02-02T00:00", 0, 1, 1, 0],
    ]);

    expect(useLite!.recalls).toBe(4);
    expect(mixOf(useLite!)).toEqual([1, 2, 1, 0]);
    // P1 moderate·kept, P3 high·kept, P2 low·kept none; P5's selector did not run.
    expect(useLite!.selector).toEqual({ worth_yes: 2, worth_no: 0, weak_yes: 0, weak_no: 1, total: 3, agree: 3, rate: 1 });
    expect(useLite!.labels).toEqual({ worth_yes: 2, worth_no: 0, weak_yes: 0, weak_no: 1, total: 3, agree: 3, rate: 1 });
    expect(useLite!.series.map((b) => [b.local_start, ...mixOf(b)])).toEqual([
      ["2025-02-01T00:00", 1, 1, 1, 0],
      ["2025-02-02T00:00", 0, 1, 0, 0],
    ]);

    expect(mixOf(strict!)).toEqual([0, 0, 0, 1]);
    expect(strict!.selector).toMatchObject({ weak_yes: 1, total: 1, agree: 0, rate: 0 });
    expect(strict!.labels).toMatchObject({ total: 0, rate: null });
  });

  it("filters by the reference level, the profile's level and the profile, as History does", async () => {
    const count = async (q: Partial<InsightsQuery>) => (await getInsights(prisma, query(q))).totals.recalls;
    expect(await count({ level: ["high"] })).toBe(2); // P1, P2
    expect(await count({ profile_level: ["moderate"] })).toBe(2); // P1, P5
    expect(await count({ profile_level: ["low", "none"] })).toBe(2); // P2, P7
    expect(await count({ profile: "use-lite" })).toBe(4); // P1, P2, P3, P5
    expect(await count({ profile: "use-lite", level: ["high"] })).toBe(2);
    expect(await count({ profile: "default" })).toBe(0); // the reference judged P4 and P6: no profile name

    const useLite = await getInsights(prisma, query({ profile: "use-lite" }));
    expect(useLite.filters).toEqual({
      store: null,
      selector_model: null,
      verdict: null,
      level: null,
      profile_level: null,
      profile: "use-lite",
      sources: null,
    });
    expect(mixOf(useLite.judges[1]!)).toEqual([2, 1, 1, 0]); // the reference level of P1, P2, P3, P5
    expect(mixOf(useLite.judges[0]!)).toEqual(mixOf(useLite.judges[2]!)); // every one judged by use-lite
    expect(useLite.judges.map((j) => j.profile)).toEqual([null, null, "use-lite"]);
    // Most-dropped memories are filtered through the memory rollup's own level columns.
    const dropped = await getInsights(prisma, query({ profile_level: ["low"] }));
    expect(dropped.most_dropped.items.map((i) => [i.memory_id, i.dropped])).toEqual([
      ["m1", 1],
      ["m2", 1],
      ["m3", 1],
    ]);
  });

  it("answers the same from the rollups as from the recalls, filtered or not, at any edges", async () => {
    for (const q of [
      query(),
      query({ from: new Date("2025-02-01T10:30:00Z"), to: new Date("2025-02-02T11:40:00Z"), bucket: "hour" }),
      query({ profile_level: ["moderate", "low"] }),
      query({ profile: "use-lite", level: ["high", "low"] }),
    ]) {
      expect(await getInsights(prisma, q)).toEqual(await getInsights(prisma, q, { rollups: false }));
    }
  });

  it("reads the level filters with History's schema", () => {
    const parse = insightsQuerySchema(() => TO).safeParse;
    expect(parse({ level: "HIGH, low", profile_level: "none", profile: "use-lite" })).toMatchObject({
      success: true,
      data: { level: ["high", "low"], profile_level: ["none"], profile: "use-lite" },
    });
    const bad = parse({ profile_level: "medium" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["profile_level"] });
    expect(bad.error?.issues[0]?.message).toMatch(/high, moderate, low, none/);
  });

  it("gives percentile bands of top_score and prominence per bucket, store and scale", async () => {
    const answer = await getDistributions(prisma, query());
    expect(answer.series.map((s) => [s.store, s.unit, s.recalls])).toEqual([
      ["alpha", "cosine", 5],
      ["beta", "BM25", 1],
    ]);
    const [alpha, beta] = answer.series;
    const [d1, d2] = alpha!.points;
    // D1 tops 0.3, 0.4, 0.5, 0.6: percentile_cont at p·(n−1) = 0.3, 0.75, 1.5, 2.25, 2.7.
    expect(d1!.top_score.n).toBe(4);
    const close = (bands: object, expected: number[]) => {
      const values = ["p10", "p25", "p50", "p75", "p90"].map((k) => (bands as Record<string, number>)[k]!);
      values.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));
    };
    close(d1!.top_score, [0.33, 0.375, 0.45, 0.525, 0.57]);
    // D1 prominences 0.05, 0.1, 0.2, 0.3.
    close(d1!.prominence, [0.065, 0.0875, 0.15, 0.225, 0.27]);
    // D2: P5 alone (P6 failed).
    expect(d2!.top_score).toEqual({ n: 1, p10: 0.7, p25: 0.7, p50: 0.7, p75: 0.7, p90: 0.7 });
    expect(beta!.points[0]!.top_score).toEqual({ n: 0, p10: null, p25: null, p50: null, p75: null, p90: null });
    expect(beta!.points[1]!.prominence).toEqual({ n: 1, p10: 1.5, p25: 1.5, p50: 1.5, p75: 1.5, p90: 1.5 });

    const filtered = await getDistributions(prisma, query({ profile: "use-lite" }));
    expect(filtered.series.map((s) => [s.store, s.recalls])).toEqual([["alpha", 4]]);
    expect(filtered.series[0]!.points[0]!.top_score.n).toBe(3); // P1, P2, P3
  });
});
