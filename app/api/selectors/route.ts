import { apiRoutes } from "@/lib/api/server/route";
import { availableSelectors } from "@/lib/selectors";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The selector choices for the console: off, score gap, and the LLM when configured (with a hint when not). */
  GET: { scope: "read", handler: async () => ({ selectors: availableSelectors(process.env) }) },
});
