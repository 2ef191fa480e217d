import type { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import path from "node:path";
import type { EmbeddedStore } from "./embedded-store";

/** The demo corpus shipped in the repo (data/demo/README.md says what is in it). */
export const DEMO_CORPUS_PATH = path.join(/* turbopackIgnore: true */ process.cwd(), "data", "demo", "memories.jsonl");
const LOADED_KEY = "demo_corpus_loaded";

export function readDemoCorpus(file: string = DEMO_CORPUS_PATH): unknown[] {
  return fs
    .readFileSync(/* turbopackIgnore: true */ file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

/** Loads the demo corpus; memories already present (same id) are left as they are. */
export async function loadDemoCorpus(store: EmbeddedStore, prisma: PrismaClient): Promise<{ created: number; skipped: number }> {
  const { created, rejected } = await store.add(readDemoCorpus());
  await prisma.appState.upsert({
    where: { key: LOADED_KEY },
    create: { key: LOADED_KEY, value: { at: new Date().toISOString(), created } },
    update: { value: { at: new Date().toISOString(), created } },
  });
  return { created, skipped: rejected };
}

/** Whether this database ever had the demo corpus (a store someone deleted is not brought back). */
export async function demoCorpusLoadedBefore(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.appState.findUnique({ where: { key: LOADED_KEY } })) !== null;
}

/**
 * First start: an empty store that never had the demo corpus gets it, so the dashboard has
 * something to show. A store someone emptied on purpose stays empty.
 */
export async function ensureDemoCorpus(store: EmbeddedStore, prisma: PrismaClient): Promise<boolean> {
  if (store.size > 0) return false;
  if (await prisma.appState.findUnique({ where: { key: LOADED_KEY } })) return false;
  if (!fs.existsSync(/* turbopackIgnore: true */ DEMO_CORPUS_PATH)) {
    console.warn(`Recall Inspector: no demo corpus at ${DEMO_CORPUS_PATH}; the embedded store starts empty.`);
    return false;
  }
  await loadDemoCorpus(store, prisma);
  return true;
}
