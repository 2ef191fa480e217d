import { apiRoutes, readBodyText } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { DatasetUploadQuerySchema, MAX_DATASET_BYTES } from "@/lib/eval/dataset-schemas";
import { createDatasetFromUpload } from "@/lib/eval/server/dataset-upload";
import { listDatasets } from "@/lib/eval/server/datasets";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The labeled query sets, newest first: of the store `?store=`, or of every store. */
  GET: {
    scope: "read",
    query: StoreQueryInputSchema,
    handler: async ({ query }) => ({
      datasets: await listDatasets(await getPrisma(), query.store),
    }),
  },
  /**
   * Creates a set of a store: JSON `{name, store?, items}`, or JSON Lines (one item a line) with
   * `?name=` (and `?store=`); without a store, the default store's. All or nothing: any bad item
   * refuses the upload, each named by its line (or index). 404 `unknown_store`; 409 a name the
   * store's sets already have.
   */
  POST: {
    scope: "full",
    query: DatasetUploadQuerySchema,
    handler: async ({ query, request }) => {
      const text = await readBodyText(request, MAX_DATASET_BYTES);
      return Response.json(await createDatasetFromUpload(await getPrisma(), text, query), { status: 201 });
    },
  },
});
