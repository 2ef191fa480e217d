import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { InsightsQuerySchema } from "@/lib/insights/schema";
import { getInsights, UnknownTimeZoneError } from "@/lib/insights/sql";

export const dynamic = "force-dynamic";

/**
 * Aggregates for a time range (README "HTTP API"): `?from&to&bucket=hour|day|week&tz&store&selector_model`
 * → `{ totals, series, by_store, by_model, not_applied_reasons, most_dropped, disagreements, … }`,
 * every rate with its counts. Computed in SQL from the rollups (lib/insights/sql.ts).
 */
export const GET = apiRoute({ query: InsightsQuerySchema }, async ({ query }) => {
  try {
    return await getInsights(await getPrisma(), query);
  } catch (error) {
    if (error instanceof UnknownTimeZoneError) {
      throw new ApiError(422, "validation_failed", `The request query is invalid: tz: ${error.message}`, {
        issues: [{ path: ["tz"], code: "custom", message: error.message }],
      });
    }
    throw error;
  }
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
