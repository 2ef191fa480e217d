-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "notices" JSONB;
