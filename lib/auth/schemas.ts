import { z } from "zod";
import { withInputRules } from "@/lib/validation/input-rules";
import { ApiKeyScopeSchema } from "./scopes";

/** Wire schemas of sign-in and API keys, shared by the route handlers and the forms. */
export const SignInBodySchema = z.strictObject({
  password: z.string().min(1, "Enter the password.").max(1000),
});

/** The shared input rule (docs/ARCHITECTURE.md "Bad input"): a NUL or lone surrogate is a 422, not a 500. */
export const CreateApiKeyBodySchema = withInputRules(
  z.strictObject({
    name: z.string().trim().min(1, "Give the key a name (who or what uses it).").max(80),
    scope: ApiKeyScopeSchema,
  }),
);
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBodySchema>;

export const ApiKeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: ApiKeyScopeSchema,
  /** The first characters of the key, e.g. "ri_Ab3dE9". */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
/** An API key as the API shows it: never the key, only its prefix (lib/auth/keys.ts toView). */
export type ApiKeyView = z.infer<typeof ApiKeyViewSchema>;

/** GET /api/auth/session */
export interface SessionState {
  /** Sign-in is on (AUTH_PASSWORD). */
  auth_enabled: boolean;
  signed_in: boolean;
}

/** The path of `/api/keys/{id}`. */
export const ApiKeyParamsSchema = z.object({ id: z.uuid() });
