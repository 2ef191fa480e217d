-- Named embedded stores (docs/ARCHITECTURE.md "Embedded stores"), written by hand around
-- Prisma's diff: a database from before keeps its one store, under the name it had (`embedded`),
-- with every memory, labeled set and run in it; nothing is re-embedded. A new database gets no
-- store here: the first start creates `demo` (or an empty `embedded` with DEMO_CORPUS=off).

-- CreateTable
CREATE TABLE "embedded_stores" (
    "name" TEXT NOT NULL,
    "description" TEXT,
    "embedding_model" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "embedded_stores_pkey" PRIMARY KEY ("name")
);

-- The old store, when this database was ever used.
INSERT INTO "embedded_stores" ("name", "description", "embedding_model")
SELECT 'embedded',
       'The store from before stores were named: every memory imported until then.',
       (SELECT "embedding_model" FROM "memories" WHERE "embedding_model" IS NOT NULL
        GROUP BY "embedding_model" ORDER BY count(*) DESC LIMIT 1)
WHERE EXISTS (SELECT 1 FROM "memories")
   OR EXISTS (SELECT 1 FROM "app_state" WHERE "key" = 'demo_corpus_loaded')
   OR EXISTS (SELECT 1 FROM "datasets")
   OR EXISTS (SELECT 1 FROM "recalls" WHERE "store" = 'embedded');

-- DropIndex
DROP INDEX "memories_created_at_id_idx";
DROP INDEX "memories_type_idx";
DROP INDEX "memories_embedding_model_idx";
DROP INDEX "datasets_name_key";

-- Every memory so far is the old store's.
ALTER TABLE "memories" DROP CONSTRAINT "memories_pkey",
ADD COLUMN     "store" TEXT NOT NULL DEFAULT 'embedded',
ADD CONSTRAINT "memories_pkey" PRIMARY KEY ("store", "id");
ALTER TABLE "memories" ALTER COLUMN "store" DROP DEFAULT;

ALTER TABLE "memory_changes" ADD COLUMN     "store" TEXT;

-- A set belongs to the store it was last run against, else to the old store.
ALTER TABLE "datasets" ADD COLUMN     "store" TEXT;
UPDATE "datasets" AS d
SET "store" = coalesce(
  (SELECT r."store" FROM "eval_runs" AS r WHERE r."dataset_id" = d."id" ORDER BY r."created_at" DESC LIMIT 1),
  'embedded');
ALTER TABLE "datasets" ALTER COLUMN "store" SET NOT NULL;

-- CreateIndex
CREATE INDEX "memories_store_created_at_id_idx" ON "memories"("store", "created_at" DESC, "id" DESC);
CREATE INDEX "memories_store_type_idx" ON "memories"("store", "type");
CREATE INDEX "memories_store_embedding_model_idx" ON "memories"("store", "embedding_model");
CREATE INDEX "memory_changes_store_idx" ON "memory_changes"("store");
CREATE UNIQUE INDEX "datasets_store_name_key" ON "datasets"("store", "name");

-- AddForeignKey
ALTER TABLE "memories" ADD CONSTRAINT "memories_store_fkey" FOREIGN KEY ("store") REFERENCES "embedded_stores"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each store's version is its own (lib/stores/embedded/index-snapshot.ts): a change appends one
-- row per store it touched, so a write to one store leaves the other stores' snapshots valid.
-- Transition tables name the stores; PostgreSQL allows them on one event per trigger, hence four.
DROP TRIGGER "memories_record_change" ON "memories";
DROP FUNCTION "record_memory_change"();

CREATE FUNCTION "record_memory_change_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "memory_changes" ("store") SELECT DISTINCT "store" FROM new_rows;
  RETURN NULL;
END
$$;

CREATE FUNCTION "record_memory_change_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "memory_changes" ("store") SELECT DISTINCT "store" FROM old_rows;
  RETURN NULL;
END
$$;

CREATE FUNCTION "record_memory_change_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "memory_changes" ("store") VALUES (NULL);
  RETURN NULL;
END
$$;

CREATE TRIGGER "memories_record_insert"
  AFTER INSERT ON "memories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "record_memory_change_new"();

-- An update may move nothing between stores (the API never changes a memory's store), so the
-- new rows name every store it touched.
CREATE TRIGGER "memories_record_update"
  AFTER UPDATE ON "memories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "record_memory_change_new"();

CREATE TRIGGER "memories_record_delete"
  AFTER DELETE ON "memories" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "record_memory_change_old"();

CREATE TRIGGER "memories_record_truncate"
  AFTER TRUNCATE ON "memories"
  FOR EACH STATEMENT EXECUTE FUNCTION "record_memory_change_all"();

-- CreateTable
CREATE TABLE "deleted_stores" (
    "name" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "memories" INTEGER NOT NULL,

    CONSTRAINT "deleted_stores_pkey" PRIMARY KEY ("name")
);
