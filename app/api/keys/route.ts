import { NextResponse } from "next/server";
import { apiRoutes } from "@/lib/api/server/route";
import { CreateApiKeyBodySchema } from "@/lib/auth/schemas";
import { createApiKey, listApiKeys } from "@/lib/auth/server/keys";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /** The API keys, newest first, revoked ones last. Never the keys themselves: only their prefixes. */
  GET: {
    scope: "person",
    handler: async () => {
      return { items: await listApiKeys(await getPrisma()) };
    },
  },
  /** `{name, scope}` → 201 `{key, item}`: the key is in this answer only, never again. */
  POST: {
    scope: "person",
    body: CreateApiKeyBodySchema,
    maxBodyBytes: 10_000,
    handler: async ({ body }) => {
      const created = await createApiKey(await getPrisma(), body);
      return NextResponse.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  },
});
