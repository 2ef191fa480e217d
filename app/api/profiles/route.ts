import { NextResponse } from "next/server";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { profileFromInput } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db";
import { listProfiles, saveProfile } from "@/lib/profiles";
import { z } from "zod";

export const dynamic = "force-dynamic";

/** Every threshold profile: the built-in ones first (read-only), then the saved ones. */
export const GET = apiRoute({}, async () => ({ profiles: await listProfiles(await getPrisma()) }));

/**
 * Creates (201) or replaces (200) a profile: `{name, thresholds, pool_size?, description?}`, the
 * thresholds merged over the reference values and checked (ranges, band order: 422).
 */
export const POST = apiRoute({ body: z.unknown() }, async ({ body }) => {
  const profile = profileFromInput(body);
  const saved = await saveProfile(await getPrisma(), profile);
  return NextResponse.json(saved.profile, { status: saved.created ? 201 : 200 });
});

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
