-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "eval_item" INTEGER,
ADD COLUMN     "eval_run_id" UUID;

-- CreateTable
CREATE TABLE "datasets" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "origin" TEXT NOT NULL DEFAULT 'upload',
    "item_count" INTEGER NOT NULL,

    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dataset_items" (
    "dataset_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "item_id" TEXT,
    "query" TEXT NOT NULL,
    "relevant" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "kind" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "dataset_items_pkey" PRIMARY KEY ("dataset_id","position")
);

-- CreateTable
CREATE TABLE "eval_runs" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dataset_id" UUID NOT NULL,
    "store" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "search_mode" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "profile" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL,
    "missing_ids" JSONB,
    "error" JSONB,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "eval_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "datasets_created_at_idx" ON "datasets"("created_at" DESC);

-- CreateIndex
CREATE INDEX "eval_runs_created_at_idx" ON "eval_runs"("created_at" DESC);

-- CreateIndex
CREATE INDEX "eval_runs_status_idx" ON "eval_runs"("status");

-- CreateIndex
CREATE INDEX "recalls_eval_run_id_eval_item_idx" ON "recalls"("eval_run_id", "eval_item");

-- AddForeignKey
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_eval_run_id_fkey" FOREIGN KEY ("eval_run_id") REFERENCES "eval_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_items" ADD CONSTRAINT "dataset_items_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

