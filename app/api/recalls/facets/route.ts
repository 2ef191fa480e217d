import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { listProfiles } from "@/lib/profiles/server";
import { historyFacets } from "@/lib/recall-log/server/history-count";
import { storeNames } from "@/lib/stores/server/registry";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The values History's pickers offer: stores configured or seen in the log, selector models, threshold profiles. */
  GET: {
    scope: "read",
    handler: async () => {
      const prisma = await getPrisma();
      const [facets, profiles] = await Promise.all([historyFacets(prisma, await storeNames()), listProfiles(prisma)]);
      // The reference profile never sets a profile level, so it is not a choice here.
      return { ...facets, profiles: profiles.map((p) => p.name).filter((name) => name !== "default") };
    },
  },
});
