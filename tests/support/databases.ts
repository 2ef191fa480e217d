import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseConfig } from "@/lib/db/server/config";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";

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

/** A scratch database, opened and migrated, with a Prisma client on it; `close` undoes all three. */
export interface MigratedDatabase {
  db: OpenDatabase;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/** The database tests' usual start (their `beforeAll`); `close` is their `afterAll`. */
export async function migratedDatabase(kind: (typeof DATABASE_KINDS)[number]): Promise<MigratedDatabase> {
  const scratch = await scratchDatabase(kind);
  let db: OpenDatabase | undefined;
  try {
    db = await openDatabase(scratch.config);
    await migrate(db);
  } catch (error) {
    await db?.close();
    await scratch.drop();
    throw error;
  }
  const opened = db;
  const prisma = new PrismaClient({ adapter: opened.adapter });
  return {
    db: opened,
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await opened.close();
      await scratch.drop();
    },
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
