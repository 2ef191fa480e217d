import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { MemoryRecallsQuerySchema } from "@/lib/recall-log/memory-usage-schema";
import { memoryRecalls } from "@/lib/recall-log/server/memory-usage";
import { MemoryParamsSchema } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * The logged recalls a memory appeared in, newest first, with the counts over all of them
   * (`show=appeared|returned|dropped|relevant`). Answers for any id: a deleted memory's recalls stay
   * in the log, and an id that never appeared has zero counts.
   */
  GET: {
    scope: "read",
    params: MemoryParamsSchema,
    query: MemoryRecallsQuerySchema,
    handler: async ({ params, query }) => memoryRecalls(await getPrisma(), params.id, query),
  },
});
