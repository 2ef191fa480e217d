import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { InsightsQuerySchema } from "@/lib/insights/schema";
import { getDistributions } from "@/lib/insights/server/sql";
import { withTimeZoneError } from "../time-zone-error";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Percentile bands over time (README "HTTP API"): the query of `GET /api/insights` → `{ series:
   * [{ store, unit, recalls, points: [{ local_start, top_score: {n, p10…p90}, prominence: {…} }] }] }`,
   * one series per store and top-score scale (lib/insights/sql/distributions.ts).
   */
  GET: {
    scope: "read",
    query: InsightsQuerySchema,
    handler: async ({ query }) => withTimeZoneError(getDistributions(await getPrisma(), query)),
  },
});
