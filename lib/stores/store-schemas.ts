import { z } from "zod";
import { textProblem, withInputRules } from "@/lib/validation/input-rules";

/**
 * Store names and the bodies that name a store, shared by the API and the forms
 * (lib/stores/server/embedded/README.md "Embedded stores"). A name follows the profile names' rule (1–64
 * characters, trimmed) and must be text a URL, a file name and a log line can carry.
 */
export const STORE_NAME_MAX = 64;

/** The demo corpus's store: the default store while it exists, and the only one the demo's example queries are about. */
export const DEMO_STORE = "demo";
/** The store a database had before stores were named, and the one created empty when there is no other. */
export const FIRST_STORE = "embedded";

export const StoreNameSchema = z
  .string({ error: "a store name is text" })
  .trim()
  .min(1, "must not be empty")
  .max(STORE_NAME_MAX, `at most ${STORE_NAME_MAX} characters`)
  .refine((name) => textProblem(name) === null, "must be plain text (no control characters)")
  .refine((name) => !/[/\\]/.test(name), "must not contain / or \\")
  .refine((name) => name !== "." && name !== "..", "must not be . or ..");

export const STORE_DESCRIPTION_MAX = 500;

/** `POST /api/stores`: a new embedded store. */
export const CreateStoreBodySchema = z.strictObject({
  name: StoreNameSchema,
  description: z.string().trim().max(STORE_DESCRIPTION_MAX, `at most ${STORE_DESCRIPTION_MAX} characters`).optional(),
});
export type CreateStoreBody = z.infer<typeof CreateStoreBodySchema>;

/** `?store=` on the memory routes: one store's memories; absent, the default store's. */
export const StoreQuerySchema = z.object({ store: StoreNameSchema.optional() });

/** The path of `/api/stores/{name}`. */
export const StoreParamsSchema = z.object({ name: StoreNameSchema });
/** The path of `/api/stores/{name}/profile`: any name, so an unknown store is a 404, not a 422. */
export const StoreProfileParamsSchema = z.object({ name: z.string().min(1).max(100) });
/** `PUT /api/stores/{name}/profile`: which threshold profile judges the store's levels. */
export const StoreProfileBodySchema = withInputRules(z.strictObject({ profile: z.string().min(1).max(64) }));

/**
 * What the routes read, with the shared input rule (docs/ARCHITECTURE.md "Bad input"); the bare
 * schemas above stay extendable for forms and other queries.
 */
export const StoreQueryInputSchema = withInputRules(StoreQuerySchema);
export const CreateStoreInputSchema = withInputRules(CreateStoreBodySchema);
