import { NextResponse } from "next/server";
import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { requirePerson } from "@/lib/auth/authorize";
import { createApiKey, listApiKeys } from "@/lib/auth/keys";
import { CreateApiKeyBodySchema } from "@/lib/auth/schemas";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** The API keys, newest first, revoked ones last. Never the keys themselves: only their prefixes. */
export const GET = apiRoute({}, async ({ principal }) => {
  requirePerson(principal);
  return { items: await listApiKeys(await getPrisma()) };
});

/** `{name, scope}` → 201 `{key, item}`: the key is in this answer only, never again. */
export const POST = apiRoute({ body: CreateApiKeyBodySchema, maxBodyBytes: 10_000 }, async ({ body, principal }) => {
  requirePerson(principal);
  const created = await createApiKey(await getPrisma(), body);
  return NextResponse.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
});

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
