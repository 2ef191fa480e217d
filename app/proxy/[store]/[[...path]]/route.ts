import type { NextRequest } from "next/server";
import { proxyRequest } from "@/lib/capture/proxy";

export const dynamic = "force-dynamic";

/**
 * The recall proxy (docs/ARCHITECTURE.md "Capture from production"): every method of
 * `/proxy/{store}/…` goes to that remote store's memory service unchanged.
 */
async function handler(request: NextRequest, context: { params: Promise<{ store: string }> }): Promise<Response> {
  const { store } = await context.params;
  return proxyRequest(request, store);
}

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as HEAD,
  handler as OPTIONS,
};
