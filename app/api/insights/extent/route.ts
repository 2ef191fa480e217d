import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { logExtent } from "@/lib/insights/server/extent";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The first and last recall in the log (`{first, last}`, null when empty): Insights' default range fits them. */
  GET: { scope: "read", handler: async () => logExtent(await getPrisma()) },
});
