import { z } from "zod";
import { apiRoutes } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { StoreNameSchema } from "@/lib/stores/store-schemas";
import { MEMORY_LIMITS, MEMORY_LOOKUP_MAX_IDS, MemoryLookupQuerySchema, type MemoryLookup } from "@/lib/stores/memory-schemas";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

/**
 * The same question as the query string's, in a body: 500 ids of up to 200 characters do not fit
 * in a URL under Node's 16 KB header cap (431), and an id may hold a comma.
 */
const MemoryLookupBodySchema = withInputRules(
  z.strictObject({
    store: StoreNameSchema.optional(),
    ids: z
      .array(z.string().min(1).max(MEMORY_LIMITS.idChars, `an id is longer than ${MEMORY_LIMITS.idChars} characters`))
      .max(MEMORY_LOOKUP_MAX_IDS, `at most ${MEMORY_LOOKUP_MAX_IDS} ids at once`)
      .transform((ids) => [...new Set(ids)]),
  }),
);

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
