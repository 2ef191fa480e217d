-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "selector_usage" JSONB;

-- CreateIndex
CREATE INDEX "recalls_selector_model_created_at_idx" ON "recalls"("selector_model", "created_at" DESC);

