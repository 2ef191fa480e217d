/**
 * `npm run mirror -- <remote-store> [--into <store>] [--limit N]`: copies a remote store's memories
 * (its configured context, through the list endpoint) into an embedded store of their own
 * (`<remote>-mirror` unless named), so the full candidate pool of the
 * same questions can be inspected locally. Goes through the running app when there is one (the
 * embedded database belongs to the app process), else opens the store itself.
 */
import { openStoreForScript } from "./open-store";
import { runScript, UsageError } from "./run-script";
import { appHeaders, runningApp } from "./running-app";
import type { MemoryInput } from "../lib/stores/memory-schemas";
import { getRemoteStores } from "../lib/stores/server/remote";
import { mirrorRemoteMemories } from "../lib/stores/server/remote/mirror";

runScript(async () => {
  const args = process.argv.slice(2);
  const at = args.indexOf("--limit");
  const limit = at >= 0 ? Number(args[at + 1]) : undefined;
  const intoAt = args.indexOf("--into");
  const name = args.find((a, i) => !a.startsWith("--") && i !== at + 1 && i !== intoAt + 1);
  const stores = getRemoteStores();
  const store = stores.find((s) => s.name === name);
  if (!store) {
    throw new UsageError(
      `usage: npm run mirror -- <remote-store> [--into <store>] [--limit N]; configured remote stores: ${stores.map((s) => s.name).join(", ") || "none (set REMOTE_STORES or REMOTE_STORE_URL)"}`,
    );
  }
  // A store of its own (never mixed into another's memories): `<remote>-mirror` unless named.
  const into = intoAt >= 0 ? args[intoAt + 1]! : `${store.name}-mirror`;
  const app = await runningApp();
  if (app) await ensureStoreInApp(app, into);
  const direct = app ? null : await openStoreForScript(into);
  try {
    const add = app
      ? async (items: MemoryInput[]) => postToApp(app, into, items)
      : async (items: MemoryInput[]) => direct!.store.add(items);
    const outcome = await mirrorRemoteMemories(store.client, add, {
      limit,
      onPage: (seen, total) => process.stdout.write(`\rread ${seen}${total === null ? "" : ` of ${total}`} memories`),
    });
    console.log(
      `\nmirrored ${store.name} into the store ${into}${app ? ` (through the app at ${app})` : ""}: ${outcome.created} added, ${outcome.skipped} already there or not valid, ${outcome.seen} read.`,
    );
  } finally {
    await direct?.close();
  }
});

/** Creates the store through the app unless it exists (409). */
async function ensureStoreInApp(url: string, name: string): Promise<void> {
  const response = await fetch(`${url}/api/stores`, {
    method: "POST",
    headers: appHeaders({ "content-type": "application/json" }),
    body: JSON.stringify({ name, description: `A copy of the remote store's memories (npm run mirror).` }),
  });
  if (!response.ok && response.status !== 409) {
    const body = (await response.json()) as { message?: string };
    throw new UsageError(`the app at ${url} refused the store ${name}: ${body.message ?? response.status}`);
  }
}

async function postToApp(url: string, store: string, memories: MemoryInput[]): Promise<{ created: number; rejected: number }> {
  const response = await fetch(`${url}/api/memories`, {
    method: "POST",
    headers: appHeaders({ "content-type": "application/json" }),
    body: JSON.stringify({ store, memories }),
  });
  const body = (await response.json()) as { created?: number; rejected?: number; message?: string };
  if (!response.ok) throw new UsageError(`the app at ${url} refused the memories: ${body.message ?? response.status}`);
  return { created: body.created ?? 0, rejected: body.rejected ?? 0 };
}
