/**
 * `npm run reembed`: embeds again every memory whose vector is missing or was made by another
 * model than the configured one (after switching EMBEDDINGS_* settings). While the app runs on
 * the embedded database, use `curl -X POST localhost:3000/api/memories/reembed` instead.
 */
import { openStoreForScript } from "./open-store";
import { runScript } from "./run-script";

runScript(async () => {
  const { store, close } = await openStoreForScript();
  try {
    const { reembedded } = await store.reembed((done, total) => process.stdout.write(`\rre-embedded ${done}/${total}`));
    console.log(reembedded ? "" : "every memory already has a vector from the configured model.");
    console.log(`${reembedded} memories re-embedded with ${store.embedder.id}.`);
  } finally {
    await close();
  }
});
