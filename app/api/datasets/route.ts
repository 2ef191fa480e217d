import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, readBodyText, methodNotAllowed } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import {
  DatasetBodySchema,
  DatasetNameSchema,
  describeItemError,
  MAX_DATASET_BYTES,
  parseItems,
  parseJsonLines,
  type DatasetItemError,
} from "@/lib/eval/dataset-schemas";
import { createDataset, DuplicateSetNameError, listDatasets } from "@/lib/eval/datasets";
import { withInputRules } from "@/lib/validation/input-rules";

export const dynamic = "force-dynamic";

/** The labeled query sets, newest first. */
export const GET = apiRoute({}, async () => ({ datasets: await listDatasets(await getPrisma()) }));

const Query = z.object({ name: withInputRules(DatasetNameSchema).optional() });

function refused(errors: DatasetItemError[]): ApiError {
  const shown = errors.slice(0, 3).map(describeItemError).join("; ");
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : "";
  return new ApiError(
    422,
    "invalid_items",
    `Nothing was stored: ${errors.length} item${errors.length === 1 ? " is" : "s are"} invalid (${shown}${more}).`,
    {
      errors: errors.slice(0, 1000),
    },
  );
}

/**
 * Creates a set: JSON `{name, items}`, or JSON Lines (one item a line) with `?name=`. All or
 * nothing: any bad item refuses the upload, each named by its line (or index).
 */
export const POST = apiRoute({ query: Query }, async ({ query, request }) => {
  const text = await readBodyText(request, MAX_DATASET_BYTES);
  let name: string;
  let origin: "upload" | "history" | undefined;
  let parsed;
  if (query.name !== undefined) {
    name = query.name;
    parsed = parseJsonLines(text);
  } else {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw ApiError.badJson(
        `${error instanceof Error ? error.message : String(error)} (a JSON Lines upload needs ?name= in the URL)`,
      );
    }
    const body = DatasetBodySchema.safeParse(json);
    if (!body.success) throw ApiError.validation(body.error, "body");
    name = body.data.name;
    origin = body.data.origin;
    parsed = parseItems(body.data.items);
  }
  if (!parsed.ok) throw refused(parsed.errors);
  const created = await createDataset(await getPrisma(), { name, items: parsed.items, ...(origin ? { origin } : {}) }).catch(
    (error: unknown) => {
      if (error instanceof DuplicateSetNameError)
        throw new ApiError(409, "duplicate_name", error.message, { name: error.setName, id: error.existingId });
      throw error;
    },
  );
  return Response.json(created, { status: 201 });
});

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
