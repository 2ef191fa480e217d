import { z } from "zod";
import { apiRoutes } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { applyRetention } from "@/lib/recall-log/retention";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const RetentionBody = withInputRules(
  z.strictObject({
    keep_days: z.number().int().min(1).max(36_500),
    dry_run: z.boolean().default(false),
  }),
);

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Deletes logged recalls older than `keep_days` (or counts them with `dry_run`). `npm run retention` calls this. */
  POST: {
    scope: "full",
    body: RetentionBody,
    handler: async ({ body }) => applyRetention(await getPrisma(), { keepDays: body.keep_days, dryRun: body.dry_run }),
  },
});
