import { apiRoutes } from "@/lib/api/server/route";
import { MemoryLookupBodySchema, MemoryLookupQuerySchema, type MemoryLookup } from "@/lib/stores/memory-schemas";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";

export const dynamic = "force-dynamic";

async function lookup(ids: string[], store: string | undefined): Promise<MemoryLookup> {
  const found = await (await getEmbeddedStore(store)).memories.existing(ids);
  return { found: ids.filter((id) => found.has(id)), missing: ids.filter((id) => !found.has(id)) };
}

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Which of these ids (`?ids=a,b,c`) the embedded store still holds: how an old recall marks the
   * memories deleted since it ran.
   */
  GET: { scope: "read", query: MemoryLookupQuerySchema, handler: async ({ query }) => lookup(query.ids, query.store) },
  /** `{ids: [...]}`: the same, for as many ids as the query string allows and more than a URL holds. */
  POST: { scope: "full", body: MemoryLookupBodySchema, handler: async ({ body }) => lookup(body.ids, body.store) },
});
