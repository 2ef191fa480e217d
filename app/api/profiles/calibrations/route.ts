import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";
import { CalibrationStartSchema } from "@/lib/calibration/calibration-schemas";
import { getPrisma } from "@/lib/db/server";
import { storeProfile, storeProfileNames, storesCalibration } from "@/lib/profiles/server";
import { probeQueries } from "@/lib/profiles/server/probes";
import { startCalibration } from "@/lib/profiles/server/store-calibration";
import { listStores, resolveStore } from "@/lib/stores/server/registry";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * Every store's calibration without labels (lib/profiles/README.md "Calibration without labels") and the
   * recalls one would run (`probe_recalls`); an embedded store that needs one starts it.
   */
  GET: {
    scope: "read",
    handler: async () => {
      const prisma = await getPrisma();
      const stores = await listStores();
      const names = await storeProfileNames(
        prisma,
        stores.map((s) => s.name),
      );
      const calibrations = await storesCalibration(prisma, stores, names, resolveStore);
      return { probe_recalls: probeQueries().length, calibrations };
    },
  },
  /**
   * `{store, confirm_recalls?}` → 202 and the calibration, started in the background. A remote
   * store answers 409 `confirmation_required` with the number of recalls it would send to the
   * service until `confirm_recalls` names that number.
   */
  POST: {
    scope: "full",
    body: CalibrationStartSchema,
    handler: async ({ body }) => {
      const prisma = await getPrisma();
      const store = await resolveStore(body.store);
      const recalls = probeQueries().length;
      if (store.kind === "remote" && body.confirm_recalls !== recalls) {
        throw new ApiError(
          409,
          "confirmation_required",
          `Calibrating "${store.name}" sends ${recalls} recalls to its memory service (each one a query embedded and searched there). Send confirm_recalls: ${recalls} to start.`,
          { recalls },
        );
      }
      const info = (await listStores()).find((s) => s.name === store.name);
      const profile = await storeProfile(prisma, store.name);
      const calibration = await startCalibration(prisma, store, info?.memories ?? 0, profile.model ?? null);
      return NextResponse.json({ store: store.name, recalls, calibration }, { status: 202 });
    },
  },
});
