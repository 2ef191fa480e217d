-- CreateTable
CREATE TABLE "memory_changes" (
    "seq" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_changes_pkey" PRIMARY KEY ("seq")
);


-- Every statement that changes memories appends one row (lib/stores/index-snapshot.ts): an
-- insert, never an update of a shared row, so concurrent imports take no common lock.
CREATE FUNCTION "record_memory_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "memory_changes" DEFAULT VALUES;
  RETURN NULL;
END
$$;

CREATE TRIGGER "memories_record_change"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "memories"
  FOR EACH STATEMENT EXECUTE FUNCTION "record_memory_change"();
