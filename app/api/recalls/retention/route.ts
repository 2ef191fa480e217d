import { apiRoutes } from "@/lib/api/server/route";
import { getPrisma } from "@/lib/db/server";
import { RetentionBodySchema } from "@/lib/recall-log/schemas";
import { applyRetention } from "@/lib/recall-log/server/retention";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** Deletes logged recalls older than `keep_days` (or counts them with `dry_run`). `npm run retention` calls this. */
  POST: {
    scope: "full",
    body: RetentionBodySchema,
    handler: async ({ body }) => applyRetention(await getPrisma(), { keepDays: body.keep_days, dryRun: body.dry_run }),
  },
});
