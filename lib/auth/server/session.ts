import type { PrismaClient } from "@prisma/client";
import { getIronSession, unsealData, webCookies, type SessionOptions } from "iron-session";
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthConfig } from "./config";
import { endSession, SESSION_TTL_SECONDS, sessionIsLive, startSession } from "./sessions";

/**
 * The signed-in session: an iron-session cookie (sealed and signed by the library, no crypto of
 * ours) holding the id of a session recorded in the database (lib/auth/sessions.ts), so that
 * signing out ends it for good, not just in this browser. Read by the proxy (pages) and the route
 * wrapper (API) alike, each with its Prisma client.
 */
export const SESSION_COOKIE = "recall_inspector_session";

export interface SessionData {
  /** The `auth_sessions` row. A cookie sealed before sessions were recorded has none: no session. */
  sid?: string;
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

type CookieSource = { cookies: { get(name: string): { value: string } | undefined } };

/** The session id a valid, unexpired cookie carries (sealed by us), or null. Says nothing about whether it is still live. */
export async function sessionIdOf(request: CookieSource, config: AuthConfig): Promise<string | null> {
  if (!config.enabled) return null;
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  if (!seal) return null;
  const data = await unsealData<SessionData>(seal, { password: config.sessionSecret, ttl: SESSION_TTL_SECONDS });
  return typeof data.sid === "string" ? data.sid : null;
}

/** Whether the request carries the cookie of a live session. Without a database (null) nothing is live. */
export async function hasSession(request: CookieSource, config: AuthConfig, prisma: PrismaClient | null): Promise<boolean> {
  const sid = await sessionIdOf(request, config);
  if (!sid || !prisma) return false;
  return sessionIsLive(prisma, sid);
}

/** Compares without leaking, through timing, how much of the password was right. */
export function passwordMatches(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** Starts a session: recorded, and its cookie's Set-Cookie header lands in `headers`. */
export async function signIn(request: Request, headers: Headers, config: AuthConfig, prisma: PrismaClient): Promise<void> {
  const sid = await startSession(prisma);
  const session = await getIronSession<SessionData>(webCookies(request, headers), sessionOptions(config, isHttps(request)));
  session.sid = sid;
  session.signedInAt = Date.now();
  await session.save();
}

/** Ends this browser's session (its row, so a copy of the cookie is refused too) and clears the cookie. */
export async function signOut(request: Request, headers: Headers, config: AuthConfig, prisma: PrismaClient): Promise<void> {
  const session = await getIronSession<SessionData>(webCookies(request, headers), sessionOptions(config, isHttps(request)));
  if (typeof session.sid === "string") await endSession(prisma, session.sid);
  session.destroy();
}
