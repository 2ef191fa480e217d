import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { CLIENT_CLOSED } from "@/lib/errors/client-closed";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import { isEmbeddedStore, resolveStore } from "@/lib/stores/server/registry";
import { isRemoteMemorySource, remoteMemoryStats } from "@/lib/stores/server/remote/remote-memories";
import { StoreQueryInputSchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * `{total, by_type, embedding_model, stale_vectors}` of the embedded store `store` (without one,
   * the default store); with `store=<remote>`,
   * the service's stats in that shape (`embedding_model: null`, `stale_vectors: 0`) plus
   * `remote: {store, working_count, persistent_count, by_importance}`.
   */
  GET: {
    scope: "read",
    query: StoreQueryInputSchema,
    handler: async ({ query, request }) => {
      const store = query.store ? await resolveStore(query.store) : await getEmbeddedStore();
      if (isEmbeddedStore(store)) return store.stats();
      if (!isRemoteMemorySource(store)) throw new ApiError(422, "unsupported_store", `The store "${store.name}" has no stats.`);
      try {
        return await remoteMemoryStats(store, request.signal);
      } catch (error) {
        if (request.signal.aborted) throw new ApiError(CLIENT_CLOSED.status, CLIENT_CLOSED.code, "The request was cancelled.");
        throw error;
      }
    },
  },
});
