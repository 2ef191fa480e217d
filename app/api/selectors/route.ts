import { apiRoute } from "@/lib/api/route";
import { availableSelectors } from "@/lib/selectors";

export const dynamic = "force-dynamic";

/** The selector choices for the console: off, score gap, and the LLM when configured (with a hint when not). */
export const GET = apiRoute({}, async () => ({ selectors: availableSelectors(process.env) }));
