import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsQuerySchema, type InsightsQuery } from "@/lib/insights/schema";
import { getInsights } from "@/lib/insights/server/sql";
import { insertRecall, insertRecalls } from "@/lib/recall-log/server/repository";
import { FIXTURE, fixtureRow, NY_FROM, NY_TO } from "./fixture";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Insights by source: the rollups key on `recalls.source`, so evaluation runs' recalls
 * — test traffic — are left out of the default figures, and any one source can be read alone.
 * The recalls of an "evaluation run" are the fixture's again under source eval, logged through
 * both write paths (a batch, and one recall a statement); with the default filters the answer is
 * the one from before they were logged, and every source choice reads the same from the rollups
 * as from the recalls.
 */

const params = { from: NY_FROM.toISOString(), to: NY_TO.toISOString(), bucket: "day", tz: "America/New_York" };
const parse = (extra: Record<string, string> = {}): InsightsQuery => insightsQuerySchema().parse({ ...params, ...extra });

describe.each(DATABASE_KINDS)("insights by source on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    ({ prisma } = database);
    await insertRecalls(
      prisma,
      FIXTURE.slice(0, 7).map((spec) => fixtureRow(spec)),
    );
    for (const spec of FIXTURE.slice(7)) await insertRecall(prisma, fixtureRow(spec));
  });

  afterAll(async () => {
    await database?.close();
  });

  it("leaves an evaluation run's recalls out of the default figures, and counts them when asked", async () => {
    const before = await getInsights(prisma, parse(), { listSize: 30 });
    expect(before.totals.recalls).toBe(11); // the fixture's recalls inside the three days
    expect(before.filters.sources).toEqual(["console", "ingest", "proxy", "otel"]);

    // An "evaluation run": the same recalls again, as eval traffic, through both write paths.
    const evalRows = FIXTURE.map((spec) => ({ ...fixtureRow(spec, randomUUID()), source: "eval" }));
    await insertRecalls(prisma, evalRows.slice(0, 6));
    for (const row of evalRows.slice(6)) await insertRecall(prisma, row);

    const after = await getInsights(prisma, parse(), { listSize: 30 });
    expect(after).toEqual(before);

    const all = await getInsights(prisma, parse({ source: "all" }), { listSize: 30 });
    expect(all.totals.recalls).toBe(2 * 11);
    expect(all.totals.dropped).toBe(2 * before.totals.dropped);
    expect(all.filters.sources).toBeNull();
    const evalOnly = await getInsights(prisma, parse({ source: "eval" }), { listSize: 30 });
    expect(evalOnly.totals).toEqual(before.totals);
    expect(evalOnly.most_dropped).toEqual(before.most_dropped);
    const consoleOnly = await getInsights(prisma, parse({ source: "console" }), { listSize: 30 });
    expect(consoleOnly.totals.recalls).toBe(0);
  });

  it("reads every source choice the same from the rollups as from the recalls", async () => {
    for (const source of [undefined, "all", "eval", "ingest", "console"]) {
      for (const extra of [{}, { store: "alpha" }, { bucket: "hour", tz: "UTC" }] as Record<string, string>[]) {
        const q = parse({ ...(source ? { source } : {}), ...extra });
        const fromRollups = await getInsights(prisma, q, { listSize: 30 });
        const fromRecalls = await getInsights(prisma, q, { listSize: 30, rollups: false });
        expect(fromRollups, JSON.stringify({ source, extra })).toEqual(fromRecalls);
      }
    }
  });

  it("keeps the rollups true when an evaluation run's recalls are deleted", async () => {
    const before = await getInsights(prisma, parse({ source: "all" }), { listSize: 30 });
    const { count } = await prisma.recall.deleteMany({ where: { source: "eval" } });
    expect(count).toBe(FIXTURE.length);
    const after = await getInsights(prisma, parse({ source: "all" }), { listSize: 30 });
    expect(after.totals.recalls).toBe(before.totals.recalls - 11);
    expect(await getInsights(prisma, parse({ source: "eval" }), { listSize: 30 })).toMatchObject({ totals: { recalls: 0 } });
    expect(after).toEqual(await getInsights(prisma, parse({ source: "all" }), { listSize: 30, rollups: false }));
  });
});
