import { getIronSession, unsealData, webCookies, type SessionOptions } from "iron-session";
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthConfig } from "./config";

/**
 * The signed-in session: an iron-session cookie (sealed and signed by the library, no crypto of
 * ours), holding only that the password was given and when. Read by the proxy (pages) and the
 * route wrapper (API) alike.
 */
export const SESSION_COOKIE = "recall_inspector_session";
/** A week; signing in again after that is cheap. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

export interface SessionData {
  signedIn?: boolean;
  signedInAt?: number;
}

/** Secure cookies only over HTTPS (directly, or as a TLS-terminating proxy says). */
export function isHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return (request.headers.get("x-forwarded-proto") ?? "").split(",")[0]!.trim().toLowerCase() === "https";
}

export function sessionOptions(config: AuthConfig, secure: boolean): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: config.sessionSecret,
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure, path: "/" },
  };
}

/** Whether the request carries a valid, unexpired session cookie. */
export async function hasSession(
  request: { cookies: { get(name: string): { value: string } | undefined } },
  config: AuthConfig,
): Promise<boolean> {
  if (!config.enabled) return false;
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  if (!seal) return false;
  const data = await unsealData<SessionData>(seal, { password: config.sessionSecret, ttl: SESSION_TTL_SECONDS });
  return data.signedIn === true;
}

/** Compares without leaking, through timing, how much of the password was right. */
export function passwordMatches(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** Starts a session: the Set-Cookie header lands in `headers`. */
export async function signIn(request: Request, headers: Headers, config: AuthConfig): Promise<void> {
  const session = await getIronSession<SessionData>(webCookies(request, headers), sessionOptions(config, isHttps(request)));
  session.signedIn = true;
  session.signedInAt = Date.now();
  await session.save();
}

export async function signOut(request: Request, headers: Headers, config: AuthConfig): Promise<void> {
  const session = await getIronSession<SessionData>(webCookies(request, headers), sessionOptions(config, isHttps(request)));
  session.destroy();
}
