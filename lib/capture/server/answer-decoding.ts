import "server-only";
import { pipeline, Readable, type Transform } from "node:stream";
import zlib from "node:zlib";

/**
 * Undoing the content codings of a proxied answer as it streams (lib/capture/README.md "Capture
 * from production"). The proxy asks the service for identity, but a service (or a proxy in front
 * of it) may compress anyway; since Next drops `Content-Encoding` from route-handler answers, the
 * agent would get coded bytes it cannot tell from plain ones. Node's zlib streams decode a piece
 * at a time, with backpressure: an answer that inflates a thousandfold costs the server a few
 * buffers, not its inflated size.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  // RFC 9110 §8.4.1.2: "deflate" is the zlib format.
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** The first of `codings` the proxy cannot undo, or null when it can undo them all. */
export function unsupportedCoding(codings: readonly string[]): string | null {
  return codings.find((c) => !(c in DECODERS)) ?? null;
}

/**
 * `body` with `codings` (in the order applied) undone, last first. A body that does not decode
 * errors the stream where it breaks: the agent's answer ends there, as a broken connection.
 */
export function decodedBody(body: ReadableStream<Uint8Array>, codings: readonly string[]): ReadableStream<Uint8Array> {
  const steps = [...codings].reverse().map((coding) => DECODERS[coding]!());
  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  // pipeline destroys every stage when one fails; the error reaches the reader of the last one.
  const decoded = pipeline([source, ...steps], () => undefined) as unknown as Readable;
  return Readable.toWeb(decoded) as unknown as ReadableStream<Uint8Array>;
}
