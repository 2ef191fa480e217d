import path from "node:path";
import { defineConfig } from "prisma/config";

// The schema's datasource keeps `url = env("DATABASE_URL")` (lib/db/README.md "Database"). When the variable is
// unset (the embedded default), the CLI cannot read the schema's config and falls back to
// downloading the classic query engine, which this network cannot reach. A placeholder URL keeps
// `prisma generate` offline; nothing connects to it.
process.env.DATABASE_URL ??= "postgresql://unused.invalid/recall_inspector";

// The JS schema engine talks to a database through a driver adapter, so the CLI needs no native
// engine download. The CLI is only used offline here (`prisma generate`, `prisma migrate diff`
// between datamodels), so it gets a throw-away in-memory PGlite: the app's data directory belongs
// to the app process (lib/db/pglite-lock.ts), and the app applies migrations itself
// (lib/db/migrator.ts).
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    return new PrismaPGlite(new PGlite());
  },
});
