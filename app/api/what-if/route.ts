import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { DEFAULT_PROFILE, editProfile, PoolSizeSchema } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db";
import { getProfile } from "@/lib/profiles";
import { whatIf } from "@/lib/profiles/what-if";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { ThresholdsOverrideSchema } from "@/lib/recall/thresholds";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

// The one input rule over every text, the filters' unknown keys included (docs/ARCHITECTURE.md "Bad input").
const Body = withInputRules(
  z
    .strictObject({
      profile: z.string().min(1).max(64).optional(),
      thresholds: ThresholdsOverrideSchema.omit({ name: true }).optional(),
      pool_size: PoolSizeSchema.optional(),
      filters: z.record(z.string(), z.unknown()).default({}),
    })
    .refine((b) => b.profile !== undefined || b.thresholds !== undefined, {
      message: "give a profile, thresholds, or both (thresholds edit the profile's constants)",
      path: ["profile"],
    }),
);

/**
 * Levels of logged recalls recomputed under a profile — saved, edited live (`thresholds` over
 * the named profile's constants, or over the reference's without one), and `pool_size` over the
 * profile's — streamed as JSON Lines: `{type:"start", total}`, `{type:"progress", done, total}`
 * after each batch, then `{type:"result", total, before, after, flip_matrix, flips, truncated,
 * cancelled}`. Closing the request cancels it.
 */
export const POST = apiRoute({ body: Body }, async ({ body, request }) => {
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
});

// Other methods answer 405 in the envelope.
export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
