/**
 * `npm run mirror -- <remote-store> [--limit N]`: copies a remote store's memories (its configured
 * context, through the list endpoint) into the embedded store, so the full candidate pool of the
 * same questions can be inspected locally. Goes through the running app when there is one (the
 * embedded database belongs to the app process), else opens the store itself.
 */
import type { MemoryInput } from "../lib/stores/memory-schemas";
import { mirrorRemoteMemories } from "../lib/stores/remote/mirror";
import { getRemoteStores } from "../lib/stores/remote";
import { openStoreForScript } from "./open-store";
import { runScript, UsageError } from "./run-script";
import { appHeaders, runningApp } from "./running-app";

runScript(async () => {
  const args = process.argv.slice(2);
  const name = args.find((a) => !a.startsWith("--"));
  const at = args.indexOf("--limit");
  const limit = at >= 0 ? Number(args[at + 1]) : undefined;
  const stores = getRemoteStores();
  const store = stores.find((s) => s.name === name);
  if (!store) {
    throw new UsageError(
      `usage: npm run mirror -- <remote-store> [--limit N]; configured remote stores: ${stores.map((s) => s.name).join(", ") || "none (set REMOTE_STORES or REMOTE_STORE_URL)"}`,
    );
  }
  const app = await runningApp();
  const direct = app ? null : await openStoreForScript();
  try {
    const add = app
      ? async (items: MemoryInput[]) => postToApp(app, items)
      : async (items: MemoryInput[]) => direct!.store.add(items);
    const outcome = await mirrorRemoteMemories(store.client, add, {
      limit,
      onPage: (seen, total) => process.stdout.write(`\rread ${seen}${total === null ? "" : ` of ${total}`} memories`),
    });
    console.log(
      `\nmirrored ${store.name} into the embedded store${app ? ` (through the app at ${app})` : ""}: ${outcome.created} added, ${outcome.skipped} already there or not valid, ${outcome.seen} read.`,
    );
  } finally {
    await direct?.close();
  }
});

async function postToApp(url: string, memories: MemoryInput[]): Promise<{ created: number; rejected: number }> {
  const response = await fetch(`${url}/api/memories`, {
    method: "POST",
    headers: appHeaders({ "content-type": "application/json" }),
    body: JSON.stringify({ memories }),
  });
  const body = (await response.json()) as { created?: number; rejected?: number; message?: string };
  if (!response.ok) throw new UsageError(`the app at ${url} refused the memories: ${body.message ?? response.status}`);
  return { created: body.created ?? 0, rejected: body.rejected ?? 0 };
}
