-- Written by hand around Prisma's index (docs/ARCHITECTURE.md "Evaluation"): a set's name is
-- unique, so Evaluate's picker and a run's report never show two sets alike. Sets stored before
-- under a name already taken keep their items and runs and get the start of their id appended,
-- the oldest keeping the name.
UPDATE "datasets" AS d
SET "name" = d."name" || ' (' || left(d."id"::text, 8) || ')'
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "name" ORDER BY "created_at", "id") AS n FROM "datasets"
) AS o
WHERE d."id" = o."id" AND o.n > 1;

-- CreateIndex
CREATE UNIQUE INDEX "datasets_name_key" ON "datasets"("name");
