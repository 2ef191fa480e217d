import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes, readBodyText } from "@/lib/api/server/route";
import { CLIENT_CLOSED } from "@/lib/errors/client-closed";
import { importLines, parseImportBody } from "@/lib/stores/import-body";
import { MemoryListQuerySchema } from "@/lib/stores/memory-schemas";
import { getEmbeddedStore, getEmbeddedStoreForWrite } from "@/lib/stores/server/embedded";
import { isEmbeddedStore, resolveStore, storeNamedOnce } from "@/lib/stores/server/registry";
import { isRemoteMemorySource, listRemoteMemories } from "@/lib/stores/server/remote/remote-memories";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";

export const dynamic = "force-dynamic";

/** 10,000 memories with long content fit; anything larger should be split. */
const MAX_IMPORT_BYTES = 32_000_000;

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * A page of memories, `{items, next_cursor, total}`: of the embedded store named by `store`
   * (without one, the default store); with a remote store's name, that service's list of its
   * configured context (read-only, no tag filter; the cursor carries the service's offset).
   */
  GET: {
    scope: "read",
    query: MemoryListQuerySchema,
    handler: async ({ query, request }) => {
      const { store: name, ...rest } = query;
      const store = name ? await resolveStore(name) : await getEmbeddedStore();
      if (isEmbeddedStore(store)) return store.memories.list(rest);
      if (!isRemoteMemorySource(store))
        throw new ApiError(422, "unsupported_store", `The store "${store.name}" cannot list its memories.`);
      try {
        return await listRemoteMemories(store, rest, request.signal);
      } catch (error) {
        if (request.signal.aborted) throw new ApiError(CLIENT_CLOSED.status, CLIENT_CLOSED.code, "The request was cancelled.");
        throw error;
      }
    },
  },
  /**
   * Adds a batch to the embedded store `?store=` (without one, the default store, created on its
   * first write): `{ memories: [...] }` as JSON, or JSON Lines. Per-item results; 201 when any was
   * created; 404 `unknown_store` for a store that does not exist.
   */
  POST: {
    scope: "full",
    query: StoreQuerySchema,
    handler: async ({ request, query }) => {
      const text = await readBodyText(request, MAX_IMPORT_BYTES);
      const parsed = parseImportBody(text, request.headers.get("content-type"));
      if (!parsed.ok) throw new ApiError(parsed.status, parsed.code, parsed.message, parsed.details);
      const store = await getEmbeddedStoreForWrite(storeNamedOnce(query.store, parsed.store));
      const outcome = await importLines(parsed.lines, (items) => store.add(items));
      return NextResponse.json(outcome, { status: outcome.created > 0 ? 201 : 200 });
    },
  },
});
