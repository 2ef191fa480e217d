/**
 * `npm run db:migration -- <name>`: writes the next migration from the change to
 * prisma/schema.prisma since the last migration, without a database.
 *
 * `prisma migrate dev` and `--from-migrations` need a shadow database the offline JS engine
 * cannot provide, so each migration leaves a snapshot of the schema it was made from
 * (prisma/migrations/schema.snapshot.prisma) and the next one diffs datamodel to datamodel.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runScript, UsageError } from "./run-script";

const root = path.resolve(__dirname, "..");
const schema = path.join(root, "prisma", "schema.prisma");
const migrationsDir = path.join(root, "prisma", "migrations");
const SNAPSHOT = path.join(migrationsDir, "schema.snapshot.prisma");

runScript(async () => {
  const name = process.argv[2]?.trim();
  if (!name || !/^[a-z0-9][a-z0-9_]*$/i.test(name)) {
    throw new UsageError("usage: npm run db:migration -- <name>   (letters, digits and underscores, e.g. add_recall_tags)");
  }
  const from = fs.existsSync(SNAPSHOT) ? ["--from-schema-datamodel", SNAPSHOT] : ["--from-empty"];
  const sql = execFileSync(
    path.join(root, "node_modules", ".bin", "prisma"),
    ["migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (!/^\s*(CREATE|ALTER|DROP|COMMENT|INSERT|UPDATE|DELETE)\b/im.test(sql)) {
    console.log("The schema has not changed since the last migration; nothing written.");
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name.toLowerCase()}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  fs.copyFileSync(schema, SNAPSHOT);
  const lock = path.join(migrationsDir, "migration_lock.toml");
  if (!fs.existsSync(lock)) {
    fs.writeFileSync(lock, '# Written by npm run db:migration; Prisma reads the provider from here.\nprovider = "postgresql"\n');
  }
  console.log(`wrote ${path.relative(root, dir)}/migration.sql — review it, then npm run db:migrate (or just start the app).`);
});
