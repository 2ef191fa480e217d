import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { DEFAULT_PROFILE, editProfile } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db/server";
import { WhatIfBodySchema } from "@/lib/profiles/schemas";
import { getProfile } from "@/lib/profiles/server";
import { whatIf } from "@/lib/profiles/server/what-if";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";

export const dynamic = "force-dynamic";

/**
 * Levels of logged recalls recomputed under a profile — saved, edited live (`thresholds` over
 * the named profile's constants, or over the reference's without one), and `pool_size` over the
 * profile's — streamed as JSON Lines: `{type:"start", total}`, `{type:"progress", done, total}`
 * after each batch, then `{type:"result", total, before, after, flip_matrix, flips, truncated,
 * cancelled}`. Closing the request cancels it.
 */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  POST: { scope: "full", body: WhatIfBodySchema, handler: whatIfStream },
});

async function whatIfStream({ body, request }: { body: z.output<typeof WhatIfBodySchema>; request: Request }) {
  const prisma = await getPrisma();
  const filters = HistoryFiltersSchema.safeParse(body.filters);
  if (!filters.success) throw ApiError.validation(filters.error, "body");
  const base = body.profile ? await getProfile(prisma, body.profile) : DEFAULT_PROFILE;
  const chosen = editProfile(base, { thresholds: body.thresholds, pool_size: body.pool_size });
  const encoder = new TextEncoder();
  // A verdict model judges unless constants were edited (an edit is a rule of the old shape).
  const model = body.thresholds === undefined && body.pool_size === undefined ? (base.model ?? null) : null;
  const events = whatIf(prisma, { ...chosen, model }, filters.data, { signal: request.signal });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(JSON.stringify(next.value) + "\n"));
      } catch (error) {
        console.error("what-if failed:", error);
        controller.enqueue(
          encoder.encode(JSON.stringify({ type: "error", message: "The what-if failed on the server; see its log." }) + "\n"),
        );
        controller.close();
      }
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}
