import { NextResponse, type NextRequest } from "next/server";
import { isAssetPath, SIGN_IN_PATH } from "@/lib/auth/access";
import { authConfig } from "@/lib/auth/server/config";
import { runningPrisma } from "@/lib/auth/server/running-database";
import { hasSession } from "@/lib/auth/server/session";
import { guardRequest, SECURITY_HEADERS, type Refusal } from "@/lib/security/guard";
import { guardInputOf, serverAllowedHosts } from "@/lib/security/server/hosts";

/**
 * The page guard (lib/auth/README.md "Security"), run before every page by the root proxy.ts,
 * the file name Next 16 requires for what it used to call middleware (Node.js only). Not the
 * recall proxy (`/proxy/{store}`, lib/capture/proxy.ts). It refuses unknown Host names (DNS
 * rebinding), cross-site writes and non-JSON bodies, sends pages to sign-in when sign-in is on,
 * and puts the security headers on every answer. A page needs a live session, as the API does:
 * the cookie's session must still be recorded in the database (signed out, it is not), read
 * through the database the server opened at start (lib/auth/running-database.ts; the guard runs
 * in the server's process).
 *
 * API routes are not matched (proxy.ts `config`): with it in front, Next buffers every request
 * body (up to proxyClientMaxBodySize) before the handler runs, which would defeat the handlers'
 * own size limits. The route wrapper (lib/api/route.ts) runs the same guard for them, plus API
 * keys against each method's declared scope.
 */
export async function guardPages(request: NextRequest): Promise<NextResponse> {
  const refusal = guardRequest(guardInputOf(request), serverAllowedHosts());
  if (refusal) return refuse(refusal);

  const { pathname, search } = request.nextUrl;
  const auth = authConfig();
  if (
    auth.enabled &&
    !isAssetPath(pathname) &&
    pathname !== SIGN_IN_PATH &&
    // A database that fails the check signs no one in: the page goes to sign-in, never a 500.
    !(await hasSession(request, auth, await runningPrisma()).catch(() => false))
  ) {
    const target = new URL(SIGN_IN_PATH, request.url);
    if (pathname !== "/" || search) target.searchParams.set("next", pathname + search);
    return secure(NextResponse.redirect(target, 303));
  }
  return secure(NextResponse.next());
}

function refuse(refusal: Refusal): NextResponse {
  const body = JSON.stringify({ error: refusal.code, message: refusal.message, details: refusal.details });
  // With a length (not chunked) the answer goes out in one write: Chrome drops the connection as
  // soon as it sees the headers of a no-cors answer it blocks (ORB), and a chunked answer still
  // being written then makes Next log an uncaught "aborted" error.
  return secure(
    new NextResponse(body, {
      status: refusal.status,
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    }),
  );
}

function secure<R extends Response>(response: R): R {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}
