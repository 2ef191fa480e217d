import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { countRecalls } from "@/lib/recall-log/history-count";

export const dynamic = "force-dynamic";

/** How many recalls the History filters select: exact up to 10,000, the planner's estimate beyond (`exact` says which). */
export const GET = apiRoute({ query: HistoryFiltersSchema }, async ({ query }) => countRecalls(await getPrisma(), query));

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
