import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { DatasetParamsSchema } from "@/lib/eval/dataset-schemas";
import { findDataset } from "@/lib/eval/server/datasets";
import { missingIds } from "@/lib/eval/server/runs";
import { resolveStore } from "@/lib/stores/server/registry";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * One labeled query set with its items; with `?store=`, also `missing`: the relevant ids that
   * store does not hold (Evaluate says so before a run; a remote store is reported unchecked).
   */
  GET: {
    scope: "read",
    params: DatasetParamsSchema,
    query: StoreQueryInputSchema,
    handler: async ({ params, query }) => {
      const prisma = await getPrisma();
      const dataset = await findDataset(prisma, params.id);
      if (!dataset) throw ApiError.notFound(`Set ${params.id}`);
      if (!query.store) return dataset;
      const store = await resolveStore(query.store);
      return {
        ...dataset,
        missing: await missingIds(
          prisma,
          store,
          dataset.items.flatMap((item) => item.relevant),
        ),
      };
    },
  },
});
