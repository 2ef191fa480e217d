/**
 * `npm run bench -- otlp [--batches 10] [--spans 1000]`: OTLP ingestion throughput. Exports made
 * by OpenTelemetry's own serializers (protobuf and JSON), each span an OpenInference retriever
 * span with five scored documents, posted to the `POST /v1/traces` handler in process on a fresh
 * PGlite database. Prints spans per second end to end (decode, translate, log) and for decoding
 * alone, and the load average.
 */
import path from "node:path";
import { runWithServerConditions } from "./server-conditions";

export async function run(args: string[]): Promise<void> {
  await runWithServerConditions(path.join(__dirname, "otlp-run.ts"), args);
}
