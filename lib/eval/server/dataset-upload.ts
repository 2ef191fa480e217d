import "server-only";
import type { PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import { defaultStoreName, resolveStore, storeNamedOnce } from "@/lib/stores/server/registry";
import {
  DatasetBodySchema,
  describeItemError,
  parseItems,
  parseJsonLines,
  type DatasetItemError,
  type DatasetUploadQuery,
} from "../dataset-schemas";
import { createDataset, DuplicateSetNameError } from "./datasets";

/** Items named in a refusal's details; the message names the first three. */
const MAX_REPORTED_ERRORS = 1000;

function refused(errors: DatasetItemError[]): ApiError {
  const shown = errors.slice(0, 3).map(describeItemError).join("; ");
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : "";
  const count = `${errors.length} item${errors.length === 1 ? " is" : "s are"}`;
  return new ApiError(422, "invalid_items", `Nothing was stored: ${count} invalid (${shown}${more}).`, {
    errors: errors.slice(0, MAX_REPORTED_ERRORS),
  });
}

/** Reads an upload: JSON Lines when the URL names the set (`?name=`), else a JSON body `{name, store?, items}`. */
function readUpload(text: string, query: DatasetUploadQuery) {
  if (query.name !== undefined) return { name: query.name, store: query.store, parsed: parseJsonLines(text) };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw ApiError.badJson(`${why} (a JSON Lines upload needs ?name= in the URL)`);
  }
  const body = DatasetBodySchema.safeParse(json);
  if (!body.success) throw ApiError.validation(body.error, "body");
  return {
    name: body.data.name,
    origin: body.data.origin,
    store: storeNamedOnce(query.store, body.data.store),
    parsed: parseItems(body.data.items),
  };
}

/**
 * Creates a labeled set from an upload, all or nothing: any bad item refuses it, each named by
 * its line (or index). Without a store, the default store's. 404 `unknown_store`; 409 a name the
 * store's sets already have.
 */
export async function createDatasetFromUpload(prisma: PrismaClient, text: string, query: DatasetUploadQuery) {
  const { name, origin, store, parsed } = readUpload(text, query);
  if (!parsed.ok) throw refused(parsed.errors);
  const target = store ? (await resolveStore(store)).name : await defaultStoreName();
  try {
    return await createDataset(prisma, { store: target, name, items: parsed.items, ...(origin ? { origin } : {}) });
  } catch (error) {
    if (error instanceof DuplicateSetNameError)
      throw new ApiError(409, "duplicate_name", error.message, { name: error.setName, id: error.existingId });
    throw error;
  }
}
