import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { getDatabase } from "@/lib/db/server";
import { storeProfile } from "@/lib/profiles/server";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { RecallFailedError, runRecall } from "@/lib/recall-log/server/run-recall";
import { defaultStoreName, resolveStore } from "@/lib/stores/server/registry";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Runs a recall against a store and logs it (README "HTTP API"). */
  POST: {
    scope: "full",
    body: RecallBodySchema,
    handler: async ({ body, request }) => {
      const store = await resolveStore(body.store ?? (await defaultStoreName()));
      const { prisma, raw } = await getDatabase();
      try {
        return await runRecall(body, store, prisma, {
          signal: request.signal,
          // Looked up while the store works; runRecall awaits it once the store has answered.
          profile: storeProfile(prisma, store.name),
          sendOrderedWrite: raw.sendOrderedWrite,
        });
      } catch (error) {
        if (error instanceof RecallFailedError) {
          throw new ApiError(error.status, error.code, error.message, { recall_id: error.recallId });
        }
        throw error;
      }
    },
  },
});
