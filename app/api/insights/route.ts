import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { InsightsQuerySchema } from "@/lib/insights/schema";
import { getInsights } from "@/lib/insights/server/sql";
import { withTimeZoneError } from "./time-zone-error";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Aggregates for a time range (README "HTTP API"): `?from&to&bucket=hour|day|week&tz&store&selector_model&level&profile_level&profile`
   * → `{ totals, series, by_store, by_model, not_applied_reasons, most_dropped, disagreements, … }`,
   * every rate with its counts, and `judges` (the level mix under the store's verdict, the
   * reference rules and each threshold profile, with agreement rates). Computed in SQL from the
   * rollups (lib/insights/server/sql/).
   */
  GET: {
    scope: "read",
    query: InsightsQuerySchema,
    handler: async ({ query }) => withTimeZoneError(getInsights(await getPrisma(), query)),
  },
});
