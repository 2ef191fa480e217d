import "server-only";
import { getPrisma } from "@/lib/db";
import { resolveStore } from "@/lib/stores/registry";
import type { RunDeps } from "./runs";

/** What evaluation runs need inside the server: the app's database and its stores. */
export async function evalDeps(): Promise<RunDeps> {
  return { prisma: await getPrisma(), resolveStore };
}
