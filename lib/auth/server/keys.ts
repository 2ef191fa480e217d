import type { ApiKey, PrismaClient } from "@prisma/client";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { isUuid } from "@/lib/validation/uuid";
import type { ApiKeyView } from "../schemas";
import type { ApiKeyScope } from "../scopes";

/**
 * API keys (lib/auth/README.md "Security"): 256 random bits, shown once at creation; only
 * their SHA-256 is stored. A slow hash would add nothing for keys this long (no dictionary to
 * try), and a plain one lets every request be checked with one indexed lookup.
 */
export const KEY_PREFIX = "ri_";
/** How much of a key is kept in clear to tell keys apart in lists: "ri_" and 6 characters. */
const SHOWN_CHARS = KEY_PREFIX.length + 6;
/** lastUsedAt is written at most this often per key, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60_000;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function toView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiKeyScope,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a key; the answer holds the key itself, which is never available again. */
export async function createApiKey(
  prisma: PrismaClient,
  input: { name: string; scope: ApiKeyScope },
): Promise<{ key: string; item: ApiKeyView }> {
  const key = generateKey();
  const row = await prisma.apiKey.create({
    data: { id: randomUUID(), name: input.name, scope: input.scope, keyHash: hashKey(key), prefix: key.slice(0, SHOWN_CHARS) },
  });
  return { key, item: toView(row) };
}

export async function listApiKeys(prisma: PrismaClient): Promise<ApiKeyView[]> {
  const rows = await prisma.apiKey.findMany({
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
  });
  return rows.map(toView);
}

export type RevokeOutcome = { ok: true; item: ApiKeyView } | { ok: false; reason: "not_found" | "ambiguous"; matches?: number };

/** Revokes by id, or by the shown prefix when exactly one active key has it. Revoking twice is fine. */
export async function revokeApiKey(prisma: PrismaClient, idOrPrefix: string): Promise<RevokeOutcome> {
  const matches = isUuid(idOrPrefix)
    ? await prisma.apiKey.findMany({ where: { id: idOrPrefix } })
    : idOrPrefix.startsWith(KEY_PREFIX) && idOrPrefix.length >= SHOWN_CHARS
      ? await prisma.apiKey.findMany({ where: { prefix: idOrPrefix.slice(0, SHOWN_CHARS), revokedAt: null } })
      : [];
  if (matches.length === 0) return { ok: false, reason: "not_found" };
  if (matches.length > 1) return { ok: false, reason: "ambiguous", matches: matches.length };
  const row = matches[0]!;
  if (row.revokedAt) return { ok: true, item: toView(row) };
  return { ok: true, item: toView(await prisma.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } })) };
}

/** The active key a request presents, or null (unknown or revoked). */
export async function findActiveKey(prisma: PrismaClient, key: string, now = new Date()): Promise<ApiKeyView | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const row = await prisma.apiKey.findUnique({ where: { keyHash: hashKey(key) } });
  if (!row || row.revokedAt) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => {});
  }
  return toView(row);
}
