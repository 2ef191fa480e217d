-- The capture-status counters (docs/ARCHITECTURE.md "Capture from production"): spans received per
-- OTLP service and what became of them, incremented in place so instances sharing a database add up.
-- CreateTable
CREATE TABLE "capture_service_counts" (
    "service" TEXT NOT NULL,
    "received" BIGINT NOT NULL DEFAULT 0,
    "retrievers" BIGINT NOT NULL DEFAULT 0,
    "logged" BIGINT NOT NULL DEFAULT 0,
    "duplicates" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_logged_at" TIMESTAMPTZ(3),
    "last_rejected_at" TIMESTAMPTZ(3),

    CONSTRAINT "capture_service_counts_pkey" PRIMARY KEY ("service")
);

-- CreateTable
CREATE TABLE "capture_rejections" (
    "service" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "last_message" TEXT NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capture_rejections_pkey" PRIMARY KEY ("service","reason")
);

