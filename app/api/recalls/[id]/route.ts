import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { RecallParamsSchema } from "@/lib/recall-log/schemas";
import { findRecall } from "@/lib/recall-log/server/repository";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** One logged recall, complete enough to redraw the console view. */
  GET: {
    scope: "read",
    params: RecallParamsSchema,
    handler: async ({ params }) => {
      const recall = await findRecall(await getPrisma(), params.id);
      if (!recall) throw ApiError.notFound(`Recall ${params.id}`);
      return recall;
    },
  },
});
