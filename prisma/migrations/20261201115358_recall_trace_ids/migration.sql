-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "span_id" TEXT,
ADD COLUMN     "trace_id" TEXT;

-- CreateIndex
CREATE INDEX "recalls_trace_id_idx" ON "recalls"("trace_id");
