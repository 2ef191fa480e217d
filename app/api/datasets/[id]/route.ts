import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { findDataset } from "@/lib/eval/datasets";
import { missingIds } from "@/lib/eval/runs";
import { resolveStore } from "@/lib/stores/registry";
import { StoreQuerySchema } from "@/lib/stores/store-schemas";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid("a set id is a UUID") });

/**
 * One labeled query set with its items; with `?store=`, also `missing`: the relevant ids that
 * store does not hold (Evaluate says so before a run; a remote store is reported unchecked).
 */
export const GET = apiRoute({ params: Params, query: withInputRules(StoreQuerySchema) }, async ({ params, query }) => {
  const prisma = await getPrisma();
  const dataset = await findDataset(prisma, params.id);
  if (!dataset) throw ApiError.notFound(`Set ${params.id}`);
  if (!query.store) return dataset;
  const store = await resolveStore(query.store);
  return {
    ...dataset,
    missing: await missingIds(
      prisma,
      store,
      dataset.items.flatMap((item) => item.relevant),
    ),
  };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
