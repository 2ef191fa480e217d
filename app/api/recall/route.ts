import { ApiError } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { RecallFailedError, runRecall } from "@/lib/recall-log/run-recall";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { resolveStore } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** Runs a recall against a store and logs it (README "HTTP API"). */
export const POST = apiRoute({ body: RecallBodySchema }, async ({ body, request }) => {
  const store = await resolveStore(body.store);
  try {
    return await runRecall(body, store, await getPrisma(), { signal: request.signal });
  } catch (error) {
    if (error instanceof RecallFailedError) {
      throw new ApiError(error.status, error.code, error.message, { recall_id: error.recallId });
    }
    throw error;
  }
});
