import type { NextRequest, NextResponse } from "next/server";
import { guardPages } from "@/lib/auth/server/page-guard";

/**
 * The page guard (lib/auth/page-guard.ts, lib/security/README.md "The request guard"). Next 16 requires this
 * file to be the root proxy.ts exporting `proxy` (its new name for middleware), so the name
 * stays; it has nothing to do with the recall proxy (`/proxy/{store}`, lib/capture/proxy.ts).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  return guardPages(request);
}

export const config = {
  // Pages only: not the API, the recall proxy (/proxy/…) nor OTLP (/v1/traces). Their handlers
  // run the same guard themselves, with their own body rules (byte-for-byte forwarding, protobuf)
  // and size limits, lib/security/README.md "The request guard" and
  // lib/capture/README.md "Capture from production".
  matcher: ["/((?!api/|proxy/|v1/).*)"],
};
