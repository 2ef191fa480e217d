import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { logExtent } from "@/lib/insights/extent";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The first and last recall in the log (`{first, last}`, null when empty): Insights' default range fits them. */
  GET: { scope: "read", handler: async () => logExtent(await getPrisma()) },
});
