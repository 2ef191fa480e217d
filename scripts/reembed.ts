/**
 * `npm run reembed`: embeds again every memory whose vector is missing or was made by another
 * model than the configured one (after switching EMBEDDINGS_* settings), in one store (`--store`,
 * default: the default store). While the app runs on
 * the embedded database, the work goes through its API (POST /api/memories/reembed).
 */
import { openStoreForScript } from "./open-store";
import { runScript, UsageError } from "./run-script";
import { appHeaders, runningApp } from "./running-app";

runScript(async () => {
  const at = process.argv.indexOf("--store");
  const name = at >= 0 ? process.argv[at + 1] : undefined;
  if (at >= 0 && !name) throw new UsageError("usage: npm run reembed [-- --store <name>] (default: the default store)");
  const app = await runningApp();
  if (app) {
    const query = name ? `?store=${encodeURIComponent(name)}` : "";
    const response = await fetch(`${app}/api/memories/reembed${query}`, { method: "POST", headers: appHeaders() });
    const body = (await response.json()) as { reembedded?: number; message?: string };
    if (!response.ok) throw new UsageError(`the app at ${app} refused: ${body.message ?? response.status}`);
    console.log(`${body.reembedded} memories re-embedded (through the running app at ${app}).`);
    return;
  }
  const { store, close } = await openStoreForScript(name);
  try {
    const { reembedded } = await store.reembed((done, total) => process.stdout.write(`\rre-embedded ${done}/${total}`));
    console.log(reembedded ? "" : "every memory already has a vector from the configured model.");
    console.log(`${reembedded} memories re-embedded with ${store.embedder.id}.`);
  } finally {
    await close();
  }
});
