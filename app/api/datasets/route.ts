import { ApiError } from "@/lib/api/errors";
import { apiRoutes, readBodyText } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import {
  DatasetBodySchema,
  DatasetUploadQuerySchema,
  describeItemError,
  MAX_DATASET_BYTES,
  parseItems,
  parseJsonLines,
  type DatasetItemError,
} from "@/lib/eval/dataset-schemas";
import { createDataset, DuplicateSetNameError, listDatasets } from "@/lib/eval/server/datasets";
import { defaultStoreName, resolveStore } from "@/lib/stores/server/registry";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

function refused(errors: DatasetItemError[]): ApiError {
  const shown = errors.slice(0, 3).map(describeItemError).join("; ");
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : "";
  return new ApiError(
    422,
    "invalid_items",
    `Nothing was stored: ${errors.length} item${errors.length === 1 ? " is" : "s are"} invalid (${shown}${more}).`,
    {
      errors: errors.slice(0, 1000),
    },
  );
}

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
      let name: string;
      let origin: "upload" | "history" | undefined;
      let store = query.store;
      let parsed;
      if (query.name !== undefined) {
        name = query.name;
        parsed = parseJsonLines(text);
      } else {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (error) {
          throw ApiError.badJson(
            `${error instanceof Error ? error.message : String(error)} (a JSON Lines upload needs ?name= in the URL)`,
          );
        }
        const body = DatasetBodySchema.safeParse(json);
        if (!body.success) throw ApiError.validation(body.error, "body");
        name = body.data.name;
        origin = body.data.origin;
        if (store && body.data.store && store !== body.data.store)
          throw new ApiError(
            422,
            "validation_failed",
            `The query names store "${store}" and the body "${body.data.store}"; name one.`,
          );
        store = store ?? body.data.store;
        parsed = parseItems(body.data.items);
      }
      if (!parsed.ok) throw refused(parsed.errors);
      const target = store ? (await resolveStore(store)).name : await defaultStoreName();
      const created = await createDataset(await getPrisma(), {
        store: target,
        name,
        items: parsed.items,
        ...(origin ? { origin } : {}),
      }).catch((error: unknown) => {
        if (error instanceof DuplicateSetNameError)
          throw new ApiError(409, "duplicate_name", error.message, { name: error.setName, id: error.existingId });
        throw error;
      });
      return Response.json(created, { status: 201 });
    },
  },
});
