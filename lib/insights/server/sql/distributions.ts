/**
 * Percentile bands of top_score and prominence per bucket, store and scale, read from "recalls"
 * (`percentile_cont` needs the values, which no counter rollup keeps): the range through the
 * (created_at) index, History's filters (fragments.ts). A separate request from the counters,
 * so the page's numbers never wait for the sort.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import type { TopScoreUnit } from "@/lib/recall-log/format";
import { filtersOf, UnknownTimeZoneError, isUnknownTimeZone } from "./errors";
import { filtersSql } from "./fragments";
import { bucketsSql, type BucketRow } from "./groups";
import {
  BAND_QUANTILES,
  type DistributionPoint,
  type DistributionSeries,
  type DistributionsResponse,
  type ScoreBands,
} from "../../distribution-schema";
import type { InsightsQuery } from "../../schema";

/** `topScoreUnit` (lib/recall-log/format.ts) in SQL: the scale a recall's top_score is on, or null. */
export const TOP_SCORE_UNIT_SQL = Prisma.raw(`CASE
    WHEN r."basis" IN ('semantic', 'single_semantic') THEN 'cosine'
    WHEN r."basis" IN ('zscore', 'single') THEN CASE
      WHEN r."search_mode" = 'keyword' OR (r."degraded" IS NOT NULL AND r."degraded" <> 'null'::jsonb) THEN 'BM25'
      WHEN r."search_mode" = 'hybrid' THEN 'hybrid'
      WHEN r."search_mode" = 'semantic' THEN 'cosine'
    END
  END`);

const NAMES = ["p10", "p25", "p50", "p75", "p90"] as const;

function quantiles(column: string, prefix: string): Prisma.Sql {
  return Prisma.raw(
    BAND_QUANTILES.map((p, i) => `percentile_cont(${p}) WITHIN GROUP (ORDER BY r."${column}") AS ${prefix}_${NAMES[i]}`).join(
      ",\n           ",
    ),
  );
}

interface BandRow extends Record<string, unknown> {
  local_bucket: string;
  store: string;
  unit: TopScoreUnit;
  top_n: number | string;
  prom_n: number | string;
}

export function distributionsSql(q: InsightsQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT to_char(date_trunc(${q.bucket}::text, r."created_at" AT TIME ZONE ${q.tz}::text), 'YYYY-MM-DD"T"HH24:MI') AS local_bucket,
           r."store", u.unit,
           count(r."top_score")::float8 AS top_n,
           ${quantiles("top_score", "top")},
           count(r."prominence")::float8 AS prom_n,
           ${quantiles("prominence", "prom")}
    FROM "recalls" AS r
    CROSS JOIN LATERAL (SELECT ${TOP_SCORE_UNIT_SQL} AS unit) AS u
    WHERE r."created_at" >= ${q.from}::timestamptz AND r."created_at" < ${q.to}::timestamptz
      AND r."status" <> 'error' AND u.unit IS NOT NULL${filtersSql(q, "r")}
    GROUP BY 1, 2, 3`;
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function bandsOf(row: BandRow | undefined, prefix: "top" | "prom"): ScoreBands {
  const n = row ? Number(row[`${prefix}_n`]) : 0;
  const at = (name: (typeof NAMES)[number]) => (row && n > 0 ? num(row[`${prefix}_${name}`]) : null);
  return { n, p10: at("p10"), p25: at("p25"), p50: at("p50"), p75: at("p75"), p90: at("p90") };
}

/** Rows → series over every bucket (pure; exported for tests). */
export function shapeDistributions(
  q: InsightsQuery,
  buckets: readonly BucketRow[],
  rows: readonly BandRow[],
): DistributionsResponse {
  const groups = new Map<string, { store: string; unit: TopScoreUnit; byBucket: Map<string, BandRow>; recalls: number }>();
  for (const row of rows) {
    const key = `${row.store}\u0000${row.unit}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { store: row.store, unit: row.unit, byBucket: new Map(), recalls: 0 }));
    group.byBucket.set(row.local_bucket, row);
    group.recalls += Math.max(Number(row.top_n), Number(row.prom_n));
  }
  const series: DistributionSeries[] = [...groups.entries()].map(([key, g]) => ({
    key,
    store: g.store,
    unit: g.unit,
    recalls: g.recalls,
    points: buckets.map((b): DistributionPoint => {
      const row = g.byBucket.get(b.local_start);
      return {
        local_start: b.local_start,
        start: new Date(b.start).toISOString(),
        end: new Date(b.end).toISOString(),
        top_score: bandsOf(row, "top"),
        prominence: bandsOf(row, "prom"),
      };
    }),
  }));
  series.sort((a, b) => b.recalls - a.recalls || a.key.localeCompare(b.key));
  return { from: q.from.toISOString(), to: q.to.toISOString(), bucket: q.bucket, tz: q.tz, filters: filtersOf(q), series };
}

export async function getDistributions(prisma: PrismaClient, q: InsightsQuery): Promise<DistributionsResponse> {
  try {
    const [buckets, rows] = await Promise.all([
      prisma.$queryRaw<BucketRow[]>(bucketsSql(q)),
      prisma.$queryRaw<BandRow[]>(distributionsSql(q)),
    ]);
    return shapeDistributions(q, buckets, rows);
  } catch (error) {
    if (isUnknownTimeZone(error)) throw new UnknownTimeZoneError(q.tz);
    throw error;
  }
}
