import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { storeProfile } from "@/lib/profiles";
import { RecallFailedError, runRecall } from "@/lib/recall-log/run-recall";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { resolveStore } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** Runs a recall against a store and logs it (README "HTTP API"). */
export const POST = apiRoute({ body: RecallBodySchema }, async ({ body, request }) => {
  const store = await resolveStore(body.store);
  const prisma = await getPrisma();
  try {
    // The profile is looked up while the store works (runRecall awaits it once the store answered).
    return await runRecall(body, store, prisma, { signal: request.signal, profile: storeProfile(prisma, body.store) });
  } catch (error) {
    if (error instanceof RecallFailedError) {
      throw new ApiError(error.status, error.code, error.message, { recall_id: error.recallId });
    }
    throw error;
  }
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
