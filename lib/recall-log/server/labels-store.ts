import { Prisma, type PrismaClient } from "@prisma/client";
import { labelableIds, labelsFromColumns, unknownLabelIds, type LabelsPatch, type RecallLabels } from "../labels";

/**
 * Saves a label patch on a logged recall (`PUT /api/recalls/{id}/labels`) and returns the labels
 * as stored, or why not: the recall does not exist, or a labeled id is neither a result nor a
 * candidate of it (then nothing is saved). The route answers those 404 and 422.
 *
 * The merge is ONE UPDATE whose expressions read the row's current values, so two saves racing
 * on the same recall both land (each changes only what it sent) instead of the later overwriting
 * the earlier; `mergeLabels` in ./labels is the same rule in TypeScript. The UPDATE also fires the
 * insights rollup trigger, which subtracts and re-adds the row: net zero, a few upserts per save.
 */
export type SaveLabelsOutcome =
  | { ok: true; labels: RecallLabels }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "unknown_ids"; unknown: string[] };

export async function saveRecallLabels(prisma: PrismaClient, id: string, patch: LabelsPatch): Promise<SaveLabelsOutcome> {
  if (patch.results && Object.keys(patch.results).length > 0) {
    const recall = await prisma.recall.findUnique({
      where: { id },
      select: { results: true, candidates: { select: { memoryId: true } } },
    });
    if (!recall) return { ok: false, reason: "not_found" };
    const results = Array.isArray(recall.results) ? (recall.results as { memory_id: string }[]) : [];
    const allowed = labelableIds({ results, candidates: recall.candidates.map((c) => ({ memory_id: c.memoryId })) });
    const unknown = unknownLabelIds(patch, allowed);
    if (unknown.length > 0) return { ok: false, reason: "unknown_ids", unknown };
  }

  const setPresent = patch.present !== undefined;
  const setLabeler = patch.labeler !== undefined;
  const present = Prisma.sql`(CASE WHEN ${setPresent}::boolean THEN ${patch.present ?? null}::text ELSE "label_present" END)`;
  // `||` overwrites the sent ids; a sent null then disappears with jsonb_strip_nulls; none left is NULL.
  const results = Prisma.sql`nullif(jsonb_strip_nulls(coalesce("label_results", '{}'::jsonb) || ${JSON.stringify(patch.results ?? {})}::jsonb), '{}'::jsonb)`;
  const rows = await prisma.$queryRaw<
    { label_present: string | null; label_results: unknown; labeler: string | null; labeled_at: Date | null }[]
  >`
    UPDATE "recalls" SET
      "label_present" = ${present},
      "label_results" = ${results},
      "labeler" = CASE WHEN ${setLabeler}::boolean THEN ${patch.labeler ?? null}::text ELSE "labeler" END,
      "labeled_at" = CASE WHEN ${present} IS NULL AND ${results} IS NULL THEN NULL ELSE now() END
    WHERE "id" = ${id}::uuid
    RETURNING "label_present", "label_results", "labeler", "labeled_at"`;
  const row = rows[0];
  if (!row) return { ok: false, reason: "not_found" };
  const labels = labelsFromColumns({
    labelPresent: row.label_present,
    labelResults: row.label_results,
    labeler: row.labeler,
    labeledAt: row.labeled_at,
  });
  return { ok: true, labels };
}
