import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { countRecalls } from "@/lib/recall-log/server/history-count";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** How many recalls the History filters select: exact up to 10,000, the planner's estimate beyond (`exact` says which). */
  GET: { scope: "read", query: HistoryFiltersSchema, handler: async ({ query }) => countRecalls(await getPrisma(), query) },
});
