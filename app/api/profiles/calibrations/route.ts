import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { CalibrationStartSchema } from "@/lib/calibration/calibration-schemas";
import { getPrisma } from "@/lib/db/server";
import { calibrateOnRequest, calibrationOverview } from "@/lib/profiles/server/store-overview";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Every store's calibration without labels (lib/profiles/README.md "Calibration without labels") and the
   * recalls one would run (`probe_recalls`); an embedded store that needs one starts it.
   */
  GET: {
    scope: "read",
    handler: async () => calibrationOverview(await getPrisma()),
  },
  /**
   * `{store, confirm_recalls?}` → 202 and the calibration, started in the background. A remote
   * store answers 409 `confirmation_required` with the number of recalls it would send to the
   * service until `confirm_recalls` names that number.
   */
  POST: {
    scope: "full",
    body: CalibrationStartSchema,
    handler: async ({ body }) =>
      NextResponse.json(await calibrateOnRequest(await getPrisma(), body.store, body.confirm_recalls), { status: 202 }),
  },
});
