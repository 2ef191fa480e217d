/**
 * `npm run retention -- --keep-days 30 [--dry-run]` (or RETENTION_DAYS=30): deletes logged recalls
 * older than the window and says how many. Talks to the running app when there is one (the
 * embedded database belongs to the app process), else opens the database itself.
 */
import { PrismaClient } from "@prisma/client";
import { runScript, UsageError } from "./run-script";
import { appHeaders, runningApp } from "./running-app";
import { resolveDatabaseConfig } from "../lib/db/server/config";
import { openDatabase } from "../lib/db/server/connection";
import { migrate } from "../lib/db/server/migrator";
import { applyRetention, type RetentionOutcome } from "../lib/recall-log/server/retention";

runScript(async () => {
  const args = process.argv.slice(2);
  const at = args.indexOf("--keep-days");
  const keepDays = Number(at >= 0 ? args[at + 1] : process.env.RETENTION_DAYS);
  const dryRun = args.includes("--dry-run");
  if (!Number.isInteger(keepDays) || keepDays < 1) {
    throw new UsageError("usage: npm run retention -- --keep-days <days> [--dry-run]   (or set RETENTION_DAYS)");
  }
  const app = await runningApp();
  const outcome = app ? await viaApp(app, keepDays, dryRun) : await directly(keepDays, dryRun);
  console.log(
    `${outcome.dry_run ? "would delete" : "deleted"} ${outcome.deleted} recalls created before ${outcome.cutoff} (keeping ${outcome.keep_days} days).`,
  );
});

async function viaApp(url: string, keepDays: number, dryRun: boolean): Promise<RetentionOutcome> {
  const response = await fetch(`${url}/api/recalls/retention`, {
    method: "POST",
    headers: appHeaders({ "content-type": "application/json" }),
    body: JSON.stringify({ keep_days: keepDays, dry_run: dryRun }),
  });
  const body = (await response.json()) as RetentionOutcome & { message?: string };
  if (!response.ok) throw new UsageError(`the app at ${url} refused: ${body.message ?? response.status}`);
  console.log(`(through the running app at ${url})`);
  return body;
}

async function directly(keepDays: number, dryRun: boolean): Promise<RetentionOutcome> {
  const db = await openDatabase(resolveDatabaseConfig());
  try {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    try {
      return await applyRetention(prisma, { keepDays, dryRun });
    } finally {
      await prisma.$disconnect();
    }
  } finally {
    await db.close();
  }
}
