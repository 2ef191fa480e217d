import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { InsightsQuerySchema } from "@/lib/insights/schema";
import { getDistributions } from "@/lib/insights/sql";
import { withTimeZoneError } from "../time-zone-error";

export const dynamic = "force-dynamic";

/**
 * Percentile bands over time (README "HTTP API"): the query of `GET /api/insights` → `{ series:
 * [{ store, unit, recalls, points: [{ local_start, top_score: {n, p10…p90}, prominence: {…} }] }] }`,
 * one series per store and top-score scale (lib/insights/sql/distributions.ts).
 */
export const GET = apiRoute({ query: InsightsQuerySchema }, async ({ query }) =>
  withTimeZoneError(getDistributions(await getPrisma(), query)),
);

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
