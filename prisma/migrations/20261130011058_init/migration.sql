-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "memories" (
    "id" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "content" TEXT,
    "type" TEXT NOT NULL DEFAULT 'note',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "importance" REAL NOT NULL DEFAULT 0.5,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3),
    "embedding" TEXT,
    "embedding_model" TEXT,

    CONSTRAINT "memories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recalls" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'console',
    "external_id" TEXT,
    "store" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "search_mode" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ok',
    "error" JSONB,
    "latency_ms" REAL,
    "timings" JSONB,
    "level" TEXT,
    "top_score" DOUBLE PRECISION,
    "prominence" DOUBLE PRECISION,
    "relative_margin" DOUBLE PRECISION,
    "result_count" INTEGER,
    "background_mean" DOUBLE PRECISION,
    "background_std" DOUBLE PRECISION,
    "background_derived" BOOLEAN NOT NULL DEFAULT false,
    "basis" TEXT,
    "thresholds_profile" TEXT,
    "confidence" JSONB,
    "selector_applied" BOOLEAN NOT NULL DEFAULT false,
    "selector_model" TEXT,
    "selector_reason" TEXT,
    "selector_kept" INTEGER,
    "selector_dropped" INTEGER,
    "dropped_memory_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "selector" JSONB,
    "results" JSONB NOT NULL DEFAULT '[]',
    "returned_count" INTEGER NOT NULL DEFAULT 0,
    "has_candidates" BOOLEAN NOT NULL DEFAULT false,
    "degraded" JSONB,

    CONSTRAINT "recalls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recall_candidates" (
    "recall_id" UUID NOT NULL,
    "rank" INTEGER NOT NULL,
    "memory_id" TEXT NOT NULL,
    "summary" TEXT,
    "raw_cosine" DOUBLE PRECISION,
    "keyword_score" DOUBLE PRECISION,
    "hybrid_score" DOUBLE PRECISION,
    "in_pool" BOOLEAN NOT NULL DEFAULT false,
    "returned" BOOLEAN NOT NULL DEFAULT false,
    "dropped" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "recall_candidates_pkey" PRIMARY KEY ("recall_id","rank")
);

-- CreateTable
CREATE TABLE "app_state" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_state_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "memories_created_at_id_idx" ON "memories"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "memories_type_idx" ON "memories"("type");

-- CreateIndex
CREATE INDEX "memories_embedding_model_idx" ON "memories"("embedding_model");

-- CreateIndex
CREATE UNIQUE INDEX "recalls_external_id_key" ON "recalls"("external_id");

-- CreateIndex
CREATE INDEX "recalls_created_at_id_idx" ON "recalls"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "recalls_store_created_at_idx" ON "recalls"("store", "created_at" DESC);

-- CreateIndex
CREATE INDEX "recalls_level_created_at_idx" ON "recalls"("level", "created_at" DESC);

-- CreateIndex
CREATE INDEX "recalls_selector_applied_created_at_idx" ON "recalls"("selector_applied", "created_at" DESC);

-- CreateIndex
CREATE INDEX "recall_candidates_memory_id_idx" ON "recall_candidates"("memory_id");

-- AddForeignKey
ALTER TABLE "recall_candidates" ADD CONSTRAINT "recall_candidates_recall_id_fkey" FOREIGN KEY ("recall_id") REFERENCES "recalls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

