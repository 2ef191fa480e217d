import "server-only";
import { getPrisma } from "@/lib/db/server";
import { findProfile, storeProfile } from "@/lib/profiles/server";
import { defaultStoreName, resolveStore } from "@/lib/stores/server/registry";
import type { RunDeps } from "./runs";

/** What evaluation runs need inside the server: the app's database and its stores. */
export async function evalDeps(): Promise<RunDeps> {
  const prisma = await getPrisma();
  return {
    prisma,
    resolveStore,
    defaultStore: defaultStoreName,
    resolveProfile: (store, name) => (name === null ? storeProfile(prisma, store) : findProfile(prisma, name)),
  };
}
