import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { profileFromInput } from "@/lib/calibration/profile";
import { getPrisma } from "@/lib/db/server";
import { ProfileBodySchema } from "@/lib/profiles/schemas";
import { listProfiles, saveProfile } from "@/lib/profiles/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Every threshold profile: the built-in ones first (read-only), then the saved ones. */
  GET: { scope: "read", handler: async () => ({ profiles: await listProfiles(await getPrisma()) }) },
  /**
   * Creates (201) or replaces (200) a profile: `{name, thresholds, pool_size?, description?}`, the
   * thresholds merged over the reference values and checked (ranges, band order: 422).
   */
  POST: {
    scope: "full",
    body: ProfileBodySchema,
    handler: async ({ body }) => {
      const profile = profileFromInput(body);
      const saved = await saveProfile(await getPrisma(), profile);
      return NextResponse.json(saved.profile, { status: saved.created ? 201 : 200 });
    },
  },
});
