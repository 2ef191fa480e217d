import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { isRemoteMemorySource, remoteMemoryStats } from "@/lib/stores/remote/remote-memories";
import { resolveStore } from "@/lib/stores/registry";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const StatsQuerySchema = withInputRules(z.object({ store: z.string().trim().max(64).optional() }));

/**
 * `{total, by_type, embedding_model, stale_vectors}` of the embedded store; with `store=<remote>`,
 * the service's stats in that shape (`embedding_model: null`, `stale_vectors: 0`) plus
 * `remote: {store, working_count, persistent_count, by_importance}`.
 */
export const GET = apiRoute({ query: StatsQuerySchema }, async ({ query, request }) => {
  if (!query.store || query.store === "embedded") return (await getEmbeddedStore()).stats();
  const store = await resolveStore(query.store);
  if (!isRemoteMemorySource(store)) return (await getEmbeddedStore()).stats();
  try {
    return await remoteMemoryStats(store, request.signal);
  } catch (error) {
    if (request.signal.aborted) throw new ApiError(499, "client_closed_request", "The request was cancelled.");
    throw error;
  }
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
