-- The store verdict model of a profile (issue 30, docs/ARCHITECTURE.md "Threshold profiles").
ALTER TABLE "threshold_profiles" ADD COLUMN "model" JSONB;
