import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseConfig } from "@/lib/db/config";

/** A fresh, empty database of the given kind, and a way to throw it away. */
export interface ScratchDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

export const DATABASE_KINDS = ["pglite", "postgresql"] as const;

export async function scratchDatabase(kind: (typeof DATABASE_KINDS)[number]): Promise<ScratchDatabase> {
  if (kind === "pglite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-pglite-"));
    const dataDir = path.join(dir, "data");
    return { config: { kind, dataDir }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = inject("postgresAdminUrl");
  const name = `test_${randomUUID().replace(/-/g, "")}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind, url: url.toString(), display: url.toString() },
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
