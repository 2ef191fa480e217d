/**
 * `POST /api/profiles/calibrations`'s body (lib/profiles/README.md "Calibration without labels"): the store
 * to calibrate without labels, and for a remote store the number of recalls the caller agreed to
 * send to its service. Client-safe.
 */
import { z } from "zod";
import { withInputRules } from "@/lib/validation/input-rules";

export const CalibrationStartSchema = withInputRules(
  z.strictObject({
    store: z.string().min(1).max(200),
    confirm_recalls: z.number().int().positive().optional(),
  }),
);
