-- CreateTable
CREATE TABLE "recall_rollup" (
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "store" TEXT NOT NULL,
    "selector_applied" BOOLEAN NOT NULL,
    "selector_model" TEXT NOT NULL,
    "selector_reason" TEXT NOT NULL,
    "recalls" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "applied" INTEGER NOT NULL DEFAULT 0,
    "counted" INTEGER NOT NULL DEFAULT 0,
    "kept" INTEGER NOT NULL DEFAULT 0,
    "dropped" INTEGER NOT NULL DEFAULT 0,
    "listed_dropped" INTEGER NOT NULL DEFAULT 0,
    "lost_any" INTEGER NOT NULL DEFAULT 0,
    "level_high" INTEGER NOT NULL DEFAULT 0,
    "level_moderate" INTEGER NOT NULL DEFAULT 0,
    "level_low" INTEGER NOT NULL DEFAULT 0,
    "level_none" INTEGER NOT NULL DEFAULT 0,
    "high_top_dropped" INTEGER NOT NULL DEFAULT 0,
    "weak_kept_all" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "recall_rollup_pkey" PRIMARY KEY ("bucket","store","selector_applied","selector_model","selector_reason")
);

-- CreateTable
CREATE TABLE "recall_memory_rollup" (
    "store" TEXT NOT NULL,
    "memory_id" TEXT NOT NULL,
    "selector_model" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "dropped" INTEGER NOT NULL DEFAULT 0,
    "kept" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "recall_memory_rollup_pkey" PRIMARY KEY ("store","memory_id","selector_model","bucket")
);

-- CreateTable
CREATE TABLE "recall_memory_summaries" (
    "store" TEXT NOT NULL,
    "memory_id" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recall_memory_summaries_pkey" PRIMARY KEY ("store","memory_id")
);

-- CreateIndex
CREATE INDEX "recalls_dropped_memory_ids_idx" ON "recalls" USING GIN ("dropped_memory_ids");

