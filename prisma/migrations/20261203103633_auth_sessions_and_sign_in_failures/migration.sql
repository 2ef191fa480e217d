-- Sessions that can end and the sign-in limiter's failures (docs/ARCHITECTURE.md "Security").
-- CreateTable
CREATE TABLE "auth_sessions" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_failures" (
    "id" BIGSERIAL NOT NULL,
    "address" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "auth_sessions_created_at_idx" ON "auth_sessions"("created_at");

-- CreateIndex
CREATE INDEX "sign_in_failures_address_at_idx" ON "sign_in_failures"("address", "at");

-- CreateIndex
CREATE INDEX "sign_in_failures_at_idx" ON "sign_in_failures"("at");

