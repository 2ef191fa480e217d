-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "label_present" TEXT,
ADD COLUMN     "label_results" JSONB,
ADD COLUMN     "labeled_at" TIMESTAMPTZ(3),
ADD COLUMN     "labeler" TEXT;


-- Written by hand below (schema.prisma cannot express CHECK constraints or partial indexes, and
-- schema diffs ignore them).
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_label_present_check"
  CHECK ("label_present" IS NULL OR "label_present" IN ('yes', 'no', 'unsure'));

-- History's label filters, newest first. Partial: only labeled rows are indexed, so at a million
-- logged recalls with a few hundred labeled the indexes stay a few pages and a filtered page is an
-- index scan in (created_at, id) order, the same keyset the unfiltered list uses.
CREATE INDEX "recalls_labeled_idx" ON "recalls" ("created_at" DESC, "id" DESC) WHERE "labeled_at" IS NOT NULL;
CREATE INDEX "recalls_label_present_idx" ON "recalls" ("label_present", "created_at" DESC, "id" DESC)
  WHERE "label_present" IS NOT NULL;
