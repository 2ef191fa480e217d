import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { forgetCalibration } from "@/lib/profiles/server/store-calibration";
import { deleteEmbeddedStore } from "@/lib/stores/server/registry";
import { StoreParamsSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Deletes an embedded store and its memories: `{deleted, memories}`. The recall log keeps the
   * store's recalls (History marks them "deleted store"); its calibration goes with it. 404 for an
   * unknown store.
   */
  DELETE: {
    scope: "full",
    params: StoreParamsSchema,
    handler: async ({ params }) => {
      const deleted = await deleteEmbeddedStore(params.name);
      await forgetCalibration(await getPrisma(), params.name);
      return deleted;
    },
  },
});
