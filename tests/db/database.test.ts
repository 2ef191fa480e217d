import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseSetupError } from "@/lib/db/server/config";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate, readMigrations, type MigrationFile } from "@/lib/db/server/migrator";
import { DATABASE_KINDS, scratchDatabase, type ScratchDatabase } from "../support/databases";

describe.each(DATABASE_KINDS)("database layer on %s", (kind) => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;

  beforeEach(async () => {
    scratch = await scratchDatabase(kind);
    db = await openDatabase(scratch.config);
  });

  afterEach(async () => {
    await db.close();
    await scratch.drop();
  });

  it("applies every migration once, records it like prisma migrate deploy, and is idempotent", async () => {
    const migrations = readMigrations();
    expect(migrations.length).toBeGreaterThan(0);

    const first = await migrate(db);
    expect(first.applied).toEqual(migrations.map((m) => m.name));
    expect(first.alreadyApplied).toEqual([]);

    const second = await migrate(db);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(migrations.map((m) => m.name));

    const rows = await db.withSession((s) =>
      s.query<{ migration_name: string; checksum: string; finished_at: unknown; applied_steps_count: number }>(
        `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
      ),
    );
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
      migrations.map((m) => [m.name, m.checksum, 1]),
    );
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("serves Prisma queries: a recall with its candidate pool, cascading on delete", async () => {
    await migrate(db);
    const prisma = new PrismaClient({ adapter: db.adapter });
    try {
      const id = randomUUID();
      await prisma.recall.create({
        data: {
          id,
          store: "embedded",
          query: "why did the deploy fail",
          k: 5,
          searchMode: "hybrid",
          request: { query: "why did the deploy fail", k: 5 },
          level: "high",
          topScore: 0.919,
          prominence: 0.559,
          droppedMemoryIds: ["m-2"],
          candidates: {
            create: [
              { rank: 1, memoryId: "m-1", rawCosine: 0.919, hybridScore: 1, returned: true },
              { rank: 2, memoryId: "m-2", rawCosine: 0.61, hybridScore: 0.4, returned: true, dropped: true },
            ],
          },
        },
      });
      const found = await prisma.recall.findUniqueOrThrow({
        where: { id },
        include: { candidates: { orderBy: { rank: "asc" } } },
      });
      expect(found.level).toBe("high");
      expect(found.droppedMemoryIds).toEqual(["m-2"]);
      expect(found.candidates.map((c) => [c.memoryId, c.rawCosine, c.dropped])).toEqual([
        ["m-1", 0.919, false],
        ["m-2", 0.61, true],
      ]);

      await prisma.recall.delete({ where: { id } });
      expect(await prisma.recallCandidate.count({ where: { recallId: id } })).toBe(0);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("refuses to run a migration that was edited after it was applied", async () => {
    const migrations = readMigrations();
    await migrate(db, migrations);
    const edited: MigrationFile[] = migrations.map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(migrate(db, edited)).rejects.toThrow(/was edited after it was applied/);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    await migrate(db);
    const broken: MigrationFile = {
      name: "99999999999999_broken",
      sql: `CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";`,
      checksum: "f".repeat(64),
    };
    await expect(migrate(db, [...readMigrations(), broken])).rejects.toThrow(DatabaseSetupError);
    const tables = await db.withSession((s) => s.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`));
    expect(tables).toEqual([]);
    const recorded = await db.withSession((s) =>
      s.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [broken.name]),
    );
    expect(recorded).toEqual([]);
  });
});

describe("database layer on postgresql, concurrently", () => {
  it("lets two app starts race on one empty database: each migration is applied exactly once", async () => {
    const scratch = await scratchDatabase("postgresql");
    const [a, b] = await Promise.all([openDatabase(scratch.config), openDatabase(scratch.config)]);
    try {
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      const names = readMigrations().map((m) => m.name);
      expect([...ra.applied, ...rb.applied].sort()).toEqual(names);
      expect([...ra.alreadyApplied, ...rb.alreadyApplied].sort()).toEqual(names);
      const rows = await a.withSession((s) => s.query(`SELECT migration_name FROM "_prisma_migrations"`));
      expect(rows).toHaveLength(names.length);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await scratch.drop();
    }
  });
});

describe("a write sent without waiting (sendOrderedWrite)", () => {
  it("is not offered on PostgreSQL, whose pool keeps no order", async () => {
    const scratch = await scratchDatabase("postgresql");
    const db = await openDatabase(scratch.config);
    try {
      expect(db.sendOrderedWrite).toBeNull();
    } finally {
      await db.close();
      await scratch.drop();
    }
  });

  it("on PGlite: every query sent after it sees it, a failure goes to onError, and close waits for it", async () => {
    const scratch = await scratchDatabase("pglite");
    const failures: unknown[] = [];
    const onError = (error: unknown) => failures.push(error);
    let db = await openDatabase(scratch.config);
    try {
      await db.withSession((s) => s.exec(`CREATE TABLE notes (id int PRIMARY KEY, body text)`));
      const prisma = new PrismaClient({ adapter: db.adapter });
      const send = db.sendOrderedWrite!;
      // A slow write first, so an unordered read would overtake it.
      send(`INSERT INTO notes SELECT 1, string_agg(md5(g::text), '') FROM generate_series(1, 20000) AS g`, [], onError);
      const counted = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM notes`;
      expect(counted).toEqual([{ n: 1 }]);

      send(`INSERT INTO notes VALUES ($1, $2)`, [1, "a duplicate key"], onError);
      send(`INSERT INTO notes VALUES ($1, $2)`, [2, "after the failure"], onError);
      const rows = await db.withSession((s) => s.query<{ id: number }>(`SELECT id FROM notes ORDER BY id`));
      expect(rows.map((r) => r.id)).toEqual([1, 2]);
      expect(failures).toHaveLength(1);
      expect(String((failures[0] as Error).message)).toMatch(/duplicate key/);

      send(`INSERT INTO notes VALUES ($1, $2)`, [3, "sent just before close"], onError);
      await prisma.$disconnect();
      await db.close();
      db = await openDatabase(scratch.config);
      const after = await db.withSession((s) => s.query<{ id: number }>(`SELECT id FROM notes ORDER BY id`));
      expect(after.map((r) => r.id)).toEqual([1, 2, 3]);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });
});
