import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { findRecall } from "@/lib/recall-log/repository";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a recall id is a UUID") });

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One logged recall, complete enough to redraw the console view. */
  GET: {
    scope: "read",
    params: Params,
    handler: async ({ params }) => {
      const recall = await findRecall(await getPrisma(), params.id);
      if (!recall) throw ApiError.notFound(`Recall ${params.id}`);
      return recall;
    },
  },
});
