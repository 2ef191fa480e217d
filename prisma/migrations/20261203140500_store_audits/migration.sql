-- CreateTable
CREATE TABLE "store_audits" (
    "store" TEXT NOT NULL,
    "version" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "result" JSONB NOT NULL,

    CONSTRAINT "store_audits_pkey" PRIMARY KEY ("store")
);

