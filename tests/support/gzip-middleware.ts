/**
 * What a FastAPI service behind Starlette's `GZipMiddleware` (minimum_size 500, compresslevel 9)
 * does to its answers, for the memory-service double (fake-memory-service.ts): an answer of at
 * least 500 bytes to a request whose `Accept-Encoding` contains "gzip" goes out gzip-compressed,
 * with `Content-Encoding: gzip`, the compressed `Content-Length` and `Vary: Accept-Encoding`;
 * smaller answers, requests that do not ask, answers that already carry a `Content-Encoding`
 * and `text/event-stream` pass as they are. A streamed answer is compressed piece by piece.
 *
 * Scripted answers may also force a coding (gzip, deflate or br) whatever the request asked, as
 * a misbehaving service or a pre-compressed file would. node:zlib only, like the double.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";

export type Coding = "gzip" | "deflate" | "br";

export const GZIP_MINIMUM_SIZE = 500;

const answersGzip = new WeakMap<ServerResponse, boolean>();

/** Called as a request comes in: whether the middleware would compress its answer. */
export function negotiateGzip(req: IncomingMessage, res: ServerResponse, enabled: boolean): void {
  // Starlette's test is a substring test on the raw header: "gzip" in Accept-Encoding.
  answersGzip.set(res, enabled && String(req.headers["accept-encoding"] ?? "").includes("gzip"));
}

export function encodeBytes(bytes: Buffer, coding: Coding): Buffer {
  if (coding === "gzip") return zlib.gzipSync(bytes, { level: 9 });
  if (coding === "deflate") return zlib.deflateSync(bytes);
  return zlib.brotliCompressSync(bytes);
}

function headerOf(headers: OutgoingHttpHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : String(headers[key]);
}

function withoutHeader(headers: OutgoingHttpHeaders, name: string): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name));
}

function compressible(headers: OutgoingHttpHeaders): boolean {
  return (
    headerOf(headers, "content-encoding") === undefined && !/text\/event-stream/i.test(headerOf(headers, "content-type") ?? "")
  );
}

function encodedHeaders(headers: OutgoingHttpHeaders, coding: Coding): OutgoingHttpHeaders {
  const vary = headerOf(headers, "vary");
  return {
    ...withoutHeader(withoutHeader(headers, "content-length"), "vary"),
    "content-encoding": coding,
    vary: vary ? `${vary}, Accept-Encoding` : "Accept-Encoding",
  };
}

/** Writes a whole answer, compressed when the middleware would (or in `forced`). */
export function endAnswer(
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string | Buffer,
  forced?: Coding,
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  const coding =
    forced ?? (answersGzip.get(res) && bytes.length >= GZIP_MINIMUM_SIZE && compressible(headers) ? "gzip" : undefined);
  if (!coding) {
    res.writeHead(status, headers);
    res.end(bytes);
    return;
  }
  const encoded = encodeBytes(bytes, coding);
  res.writeHead(status, { ...encodedHeaders(headers, coding), "content-length": encoded.length });
  res.end(encoded);
}

/** Starts a streamed answer; `write`/`end` compress on the way when the middleware would. */
export function startStream(
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
): { write: (piece: string) => void; end: () => void } {
  if (!answersGzip.get(res) || !compressible(headers)) {
    res.writeHead(status, headers);
    return { write: (piece) => void res.write(piece), end: () => void res.end() };
  }
  res.writeHead(status, encodedHeaders(headers, "gzip"));
  const gzip = zlib.createGzip({ level: 9 });
  gzip.pipe(res);
  return {
    write: (piece) => {
      gzip.write(piece);
      gzip.flush();
    },
    end: () => void gzip.end(),
  };
}
