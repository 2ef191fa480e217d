import type { NextRequest } from "next/server";
import { apiRoutes, type RawMethodSpec } from "@/lib/api/server/route";
import type { RouteScope } from "@/lib/auth/scopes";
import { proxyRequest } from "@/lib/capture/server/proxy";

export const dynamic = "force-dynamic";

/**
 * The recall proxy (lib/capture/README.md "Capture from production"): every method of
 * `/proxy/{store}/…` goes to that remote store's memory service unchanged. An `ingest` key may
 * call it in every method; a `read` key may also read through it (GET, HEAD).
 */
function forward(scope: RouteScope): RawMethodSpec {
  return {
    scope,
    raw: async (request: NextRequest, context) => {
      const { store } = (await context.params) as { store: string };
      return proxyRequest(request, store, context.scope);
    },
  };
}

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = apiRoutes({
  GET: forward(["ingest", "read"]),
  HEAD: forward(["ingest", "read"]),
  POST: forward("ingest"),
  PUT: forward("ingest"),
  PATCH: forward("ingest"),
  DELETE: forward("ingest"),
  OPTIONS: forward("ingest"),
});
