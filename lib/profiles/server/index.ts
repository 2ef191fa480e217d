import "server-only";
import { Prisma, type PrismaClient } from "@prisma/client";
import { ApiError } from "@/lib/api/errors";
import type { StoreNull, VerdictModel } from "@/lib/calibration/model";
import { DEFAULT_PROFILE, type Profile, type ProfileSource } from "@/lib/calibration/profile";
import { resolveThresholds } from "@/lib/recall/thresholds";
import { autoCalibrationEnabled } from "@/lib/server/env";
import { getRemoteStores } from "@/lib/stores/server/remote";
import type { MemoryStore } from "@/lib/stores/types";
import { BUILTIN_PROFILES, builtinStoreProfile } from "../builtin";
import { calibrationsForStores, nullOf, type StoreCalibration } from "./store-calibration";

export { BUILTIN_PROFILES, SHIPPED_PROFILE, SHIPPED_PROFILE_NAME, builtinStoreProfile } from "../builtin";

/**
 * Threshold profiles as data (lib/calibration/README.md "Threshold profiles"): the built-in ones in
 * code, the user's own in `threshold_profiles`, and which one each store judges with in
 * `store_profiles`.
 */

interface ProfileRow {
  name: string;
  description: string | null;
  thresholds: Prisma.JsonValue;
  poolSize: number | null;
  source: Prisma.JsonValue;
  model?: Prisma.JsonValue;
}

function fromRow(row: ProfileRow): Profile {
  return {
    name: row.name,
    description: row.description,
    thresholds: resolveThresholds({ ...(row.thresholds as object), name: row.name }),
    pool_size: row.poolSize,
    source: (row.source as ProfileSource | null) ?? null,
    builtin: false,
    model: (row.model as unknown as VerdictModel | null | undefined) ?? null,
  };
}

export async function listProfiles(prisma: PrismaClient): Promise<Profile[]> {
  const rows = await prisma.thresholdProfile.findMany({ orderBy: { name: "asc" } });
  return [...BUILTIN_PROFILES.map((p) => ({ ...p })), ...rows.map(fromRow)];
}

export async function findProfile(prisma: PrismaClient, name: string): Promise<Profile | null> {
  const builtin = BUILTIN_PROFILES.find((p) => p.name === name);
  if (builtin) return { ...builtin };
  const row = await prisma.thresholdProfile.findUnique({ where: { name } });
  return row ? fromRow(row) : null;
}

export async function getProfile(prisma: PrismaClient, name: string): Promise<Profile> {
  const profile = await findProfile(prisma, name);
  if (!profile) throw ApiError.notFound(`Profile "${name}"`);
  return profile;
}

/** Creates or replaces a user profile; built-in names are refused (409). */
export async function saveProfile(prisma: PrismaClient, profile: Profile): Promise<{ profile: Profile; created: boolean }> {
  if (BUILTIN_PROFILES.some((p) => p.name === profile.name)) {
    throw new ApiError(
      409,
      "profile_read_only",
      `"${profile.name}" is a built-in profile and cannot be changed; save under another name.`,
    );
  }
  const { name: _name, ...thresholds } = profile.thresholds;
  const data = {
    description: profile.description,
    thresholds: thresholds as unknown as Prisma.InputJsonValue,
    poolSize: profile.pool_size,
    source: (profile.source ?? undefined) as unknown as Prisma.InputJsonValue | undefined,
    model: profile.model ? (profile.model as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
  };
  const existing = await prisma.thresholdProfile.findUnique({ where: { name: profile.name }, select: { name: true } });
  await prisma.thresholdProfile.upsert({ where: { name: profile.name }, create: { name: profile.name, ...data }, update: data });
  return { profile: { ...profile, builtin: false }, created: !existing };
}

/** The profile name each store uses (its assignment, or its built-in choice). */
export async function storeProfileNames(prisma: PrismaClient, stores: readonly string[]): Promise<Record<string, string>> {
  const rows = await prisma.storeProfile.findMany({ where: { store: { in: [...stores] } } });
  const assigned = new Map(rows.map((r) => [r.store, r.profile]));
  return Object.fromEntries(stores.map((s) => [s, assigned.get(s) ?? builtinStoreProfile(storeKind(s))]));
}

/**
 * The profile a store judges with, and the store's own null when it calibrated itself without
 * labels (store-calibration.ts); a profile that has since disappeared falls back to the
 * reference. Every recall asks, so it is one raw statement (the assignment, the user's profile it
 * names and the store's calibration together): a model query costs several times more in
 * Prisma's query compiler.
 */
export async function storeProfile(prisma: PrismaClient, store: string): Promise<Profile & { store_null: StoreNull | null }> {
  const [row] = await prisma.$queryRaw<(Partial<ProfileRow> & { assigned: string | null; calibration: unknown })[]>`
    SELECT sp."profile" AS assigned, tp."name", tp."description", tp."thresholds", tp."pool_size" AS "poolSize", tp."source",
           tp."model", cal."value" AS calibration
    FROM (SELECT ${store}::text AS store) AS s
    LEFT JOIN "store_profiles" AS sp ON sp."store" = s.store
    LEFT JOIN "threshold_profiles" AS tp ON tp."name" = sp."profile"
    LEFT JOIN "app_state" AS cal ON cal."key" = 'calibration:' || s.store`;
  const name = row?.assigned ?? builtinStoreProfile(storeKind(store));
  const store_null = nullOf(row?.calibration);
  const builtin = BUILTIN_PROFILES.find((p) => p.name === name);
  if (builtin) return { ...builtin, store_null };
  return { ...(row?.name ? fromRow(row as ProfileRow) : { ...DEFAULT_PROFILE }), store_null };
}

export async function assignStoreProfile(prisma: PrismaClient, store: string, profile: string): Promise<Profile> {
  const found = await getProfile(prisma, profile);
  await prisma.storeProfile.upsert({ where: { store }, create: { store, profile }, update: { profile } });
  return found;
}

/** A configured remote store's name, else an embedded store's (or one that no longer exists). */
function storeKind(store: string): "embedded" | "remote" {
  return getRemoteStores().some((remote) => remote.name === store) ? "remote" : "embedded";
}

/**
 * Each store's calibration for `GET /api/stores` (store-calibration.ts), an embedded store that
 * needs one starting it in the background with its profile's model.
 */
export async function storesCalibration(
  prisma: PrismaClient,
  stores: readonly { name: string; kind: "embedded" | "remote"; memories?: number }[],
  profileNames: Record<string, string>,
  resolve: (store: string) => Promise<MemoryStore>,
): Promise<Record<string, StoreCalibration>> {
  const profiles = new Map((await listProfiles(prisma)).map((p) => [p.name, p]));
  return calibrationsForStores(prisma, stores, {
    model: (store) => profiles.get(profileNames[store] ?? "")?.model ?? null,
    resolve,
    auto: autoCalibrationEnabled(),
  });
}
