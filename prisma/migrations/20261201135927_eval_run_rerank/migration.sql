-- AlterTable
ALTER TABLE "eval_runs" ADD COLUMN     "use_rerank" BOOLEAN NOT NULL DEFAULT false;

