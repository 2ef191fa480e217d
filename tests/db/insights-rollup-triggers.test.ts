import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlSession } from "@/lib/db/server/connection";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * prisma/sql/insights-rollup-triggers.sql is the readable copy of the Insights rollup functions
 * and triggers, which four migrations redefine in turn. A fresh database migrated from scratch
 * must hold exactly what the file defines: each function's and trigger's definition as
 * PostgreSQL prints it (pg_get_functiondef, pg_get_triggerdef) after the migrations equals the
 * one it prints after running the file instead, and no rollup function or trigger is missing
 * from the file.
 */
const FILE = path.resolve(import.meta.dirname, "../../prisma/sql/insights-rollup-triggers.sql");
const sql = fs.readFileSync(FILE, "utf8");

const FUNCTIONS = [...sql.matchAll(/^CREATE OR REPLACE FUNCTION (\w+)\(/gm)].map((m) => m[1]!);
const TRIGGERS = [...sql.matchAll(/^CREATE TRIGGER (\w+) /gm)].map((m) => m[1]!);

/** Whitespace runs folded to one space: a re-indented copy is the same definition. */
const normalise = (text: string) => text.replace(/\s+/g, " ").trim();

interface Definitions {
  functions: Record<string, string>;
  triggers: Record<string, string>;
}

/** The definitions PostgreSQL holds for the file's functions and every non-internal trigger on recalls. */
async function definitions(session: SqlSession): Promise<Definitions> {
  const functions = await session.query<{ name: string; def: string }>(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = current_schema() AND p.proname = ANY ($1::text[])`,
    [FUNCTIONS],
  );
  const triggers = await session.query<{ name: string; def: string }>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def
     FROM pg_trigger WHERE tgrelid = 'recalls'::regclass AND NOT tgisinternal AND tgname LIKE 'recalls_insights_%'`,
  );
  return {
    functions: Object.fromEntries(functions.map((f) => [f.name, normalise(f.def)])),
    triggers: Object.fromEntries(triggers.map((t) => [t.name, normalise(t.def)])),
  };
}

describe.each(DATABASE_KINDS)("the Insights rollup triggers on %s", (kind) => {
  let database: MigratedDatabase;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it("the file names the rollup functions and the four triggers", () => {
    expect(FUNCTIONS).toEqual(
      expect.arrayContaining(["recall_insight_counts", "recall_insights_statements", "recall_insights_add_one"]),
    );
    expect(TRIGGERS.sort()).toEqual([
      "recalls_insights_delete",
      "recalls_insights_insert",
      "recalls_insights_truncate",
      "recalls_insights_update",
    ]);
  });

  it("the migrations leave exactly the definitions of prisma/sql/insights-rollup-triggers.sql", async () => {
    await database.db.withSession(async (session) => {
      const migrated = await definitions(session);
      // Every recall_* function, overloads included: one the file lacks, or a stale signature left
      // behind by a migration, is a difference.
      const overloads = await session.query<{ name: string }>(
        `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = current_schema() AND (p.proname LIKE 'recall\\_%' OR p.proname = ANY ($1::text[]))`,
        [FUNCTIONS],
      );
      expect(overloads.map((o) => o.name).sort()).toEqual([...FUNCTIONS].sort());
      expect(Object.keys(migrated.functions).sort()).toEqual([...FUNCTIONS].sort());
      expect(Object.keys(migrated.triggers).sort()).toEqual([...TRIGGERS].sort());

      // The file's definitions in the same database, then the migrations' put back.
      await session.exec("BEGIN");
      try {
        await session.exec(
          `${TRIGGERS.map((t) => `DROP TRIGGER ${t} ON recalls;`).join("\n")}
           ${FUNCTIONS.map((f) => `DROP FUNCTION ${f} CASCADE;`).join("\n")}`,
        );
        await session.exec(sql);
        const fromFile = await definitions(session);
        expect(fromFile.functions).toEqual(migrated.functions);
        expect(fromFile.triggers).toEqual(migrated.triggers);
      } finally {
        await session.exec("ROLLBACK");
      }
    });
  });
});
