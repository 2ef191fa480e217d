-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "profile_confidence" JSONB,
ADD COLUMN     "profile_level" TEXT,
ADD COLUMN     "profile_name" TEXT;

-- CreateTable
CREATE TABLE "threshold_profiles" (
    "name" TEXT NOT NULL,
    "description" TEXT,
    "thresholds" JSONB NOT NULL,
    "pool_size" INTEGER,
    "source" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "threshold_profiles_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "store_profiles" (
    "store" TEXT NOT NULL,
    "profile" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_profiles_pkey" PRIMARY KEY ("store")
);

-- CreateIndex
CREATE INDEX "recalls_profile_level_created_at_idx" ON "recalls"("profile_level", "created_at" DESC);

