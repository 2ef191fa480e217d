/** `npm run seed`: loads the demo corpus (data/demo) into the store `demo`; memories already there are kept. */
import { openStoreForScript } from "./open-store";
import { runScript } from "./run-script";
import { loadDemoCorpus } from "../lib/stores/server/embedded/demo-corpus";
import { DEMO_STORE } from "../lib/stores/store-schemas";

runScript(async () => {
  const { store, prisma, close } = await openStoreForScript(DEMO_STORE);
  try {
    const { created, skipped } = await loadDemoCorpus(store, prisma);
    console.log(`demo corpus: ${created} memories added, ${skipped} already present; the store holds ${store.size}.`);
  } finally {
    await close();
  }
});
