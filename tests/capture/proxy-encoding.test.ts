import http from "node:http";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest } from "../support/app-under-test";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_CONTEXT_ID, fullRecallResponse, S1_CONFIDENCE } from "../support/fake-memory-service-fixtures";
import { encodeBytes, type Coding } from "../support/gzip-middleware";
import { serveLikeNext } from "../support/next-route-server";

/**
 * The recall proxy and compressed answers, and answers it cannot inspect (a gzip bomb,
 * hostile JSON), over real HTTP: the route handler served through Next's own
 * `sendResponse`, which drops `Content-Encoding` from route-handler answers, in front of the
 * memory-service double behind GZipMiddleware. Real clients: Node's fetch (undici, which asks for
 * gzip and deflate by default) and a raw node:http client that asks for gzip and gunzips itself.
 * Whatever the agent asks, direct and proxied answers decode to the same bytes.
 */
const AGENT_KEY = "kagura_agent-own-secret-key-0123456789abcdefghij";
const fake = await startFakeMemoryService({ apiKey: AGENT_KEY, gzip: true });

const app = appUnderTest("proxy-enc");
delete process.env.AUTH_PASSWORD;
for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE_")) delete process.env[key];
process.env.REMOTE_STORES = JSON.stringify([
  { name: "fake", base_url: fake.url, api_key: "kagura_store-key", context_id: FAKE_CONTEXT_ID, timeout_ms: 20_000 },
]);

const route = await import("@/app/proxy/[store]/[[...path]]/route");
const { settleCaptures } = await import("@/lib/capture/server/proxy");
const { getDatabase, getPrisma } = await import("@/lib/db/server");

const server = await serveLikeNext((request) => {
  const store = /^\/proxy\/([^/]+)/.exec(new URL(request.url).pathname)?.[1] ?? "";
  const handler = route[request.method as "GET" | "POST"];
  return handler(request, { params: Promise.resolve({ store }) });
});
const PROXY = `${server.url}/proxy/fake`;

beforeAll(async () => {
  await getDatabase();
});
afterEach(() => fake.reset());
afterAll(async () => {
  await settleCaptures();
  await server.close();
  await fake.close();
  await app.close();
});

const RECALL = "/api/v1/memory/recall";
const recallBody = (query: string, k = 3) => JSON.stringify({ query, k, filters: { context_id: FAKE_CONTEXT_ID } });

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  wire: Buffer;
  /** The bytes once the answer's Content-Encoding is undone, as the client would. */
  decoded: Buffer;
}

const undo: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gunzipSync(b),
  deflate: (b) => zlib.inflateSync(b),
  br: (b) => zlib.brotliDecompressSync(b),
  identity: (b) => b,
};

/** A raw node:http call: the client sends exactly `headers` and undoes the answer's coding itself. */
function rawCall(url: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: body === undefined ? "GET" : "POST", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        const coding = String(res.headers["content-encoding"] ?? "identity").toLowerCase();
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, decoded: undo[coding]!(wire) });
        } catch (error) {
          reject(new Error(`the answer does not decode as its Content-Encoding (${coding}) says: ${String(error)}`));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const agentHeaders = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${AGENT_KEY}`,
  "content-type": "application/json",
  ...extra,
});

async function proxiedRows() {
  await settleCaptures();
  const prisma = await getPrisma();
  return prisma.recall.findMany({ where: { source: "proxy" }, orderBy: { createdAt: "asc" } });
}

describe("compressed answers through /proxy/{store}/…", () => {
  it("Node's fetch (asks gzip, deflate) reads the same JSON through the proxy as direct; the recall is logged once", async () => {
    const before = (await proxiedRows()).length;
    const init = { method: "POST", headers: agentHeaders(), body: recallBody("why do we get 401s") };
    const direct = await fetch(`${fake.url}${RECALL}`, init);
    expect(direct.headers.get("content-encoding")).toBe("gzip"); // the double did compress
    const directText = await direct.text();
    const proxied = await fetch(`${PROXY}${RECALL}`, init);
    expect(proxied.status).toBe(200);
    const proxiedText = await proxied.text();
    expect(proxiedText).toBe(directText);
    expect(JSON.parse(proxiedText)).toEqual(fullRecallResponse());

    const rows = await proxiedRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ status: "ok", query: "why do we get 401s", level: "high", resultCount: 8 });
    // The service was asked for identity: the proxy decodes nothing it did not have to.
    expect(fake.requests.at(-1)!.headers["accept-encoding"]).toBe("identity");
  });

  it("a raw client that asks for gzip and gunzips itself, and one that asks for nothing, decode the same bytes as direct", async () => {
    for (const extra of [{ "accept-encoding": "gzip" }, { "accept-encoding": "gzip, deflate, br" }, {}] as Record<
      string,
      string
    >[]) {
      const body = recallBody("rotating signing keys", 2);
      const direct = await rawCall(`${fake.url}${RECALL}`, agentHeaders(extra), body);
      const proxied = await rawCall(`${PROXY}${RECALL}`, agentHeaders(extra), body);
      expect(proxied.status).toBe(200);
      expect(proxied.decoded.equals(direct.decoded)).toBe(true);
      // Bytes and header agree: no Content-Encoding unless the bytes are in it.
      if (proxied.headers["content-encoding"] === undefined) expect(proxied.wire.equals(proxied.decoded)).toBe(true);
    }
  });

  it("whatever coding the service answers in (gzip, deflate, br, identity), the agent's bytes and Content-Encoding agree", async () => {
    const before = (await proxiedRows()).length;
    for (const coding of ["gzip", "deflate", "br", undefined] as (Coding | undefined)[]) {
      // A service that compresses whatever it was asked (a proxy in front of it, a cached file).
      fake.setNext({ path: RECALL, json: fullRecallResponse(), ...(coding ? { encoding: coding } : {}) });
      const proxied = await rawCall(`${PROXY}${RECALL}`, agentHeaders(), recallBody(`coding ${coding ?? "identity"}`));
      expect(proxied.status).toBe(200);
      expect(JSON.parse(proxied.decoded.toString("utf8"))).toEqual(fullRecallResponse());
    }
    const rows = await proxiedRows();
    expect(rows.slice(before).map((r) => [r.query, r.status])).toEqual([
      ["coding gzip", "ok"],
      ["coding deflate", "ok"],
      ["coding br", "ok"],
      ["coding identity", "ok"],
    ]);
  });

  it("a coding the proxy cannot undo is the dashboard's 502, not bytes the agent cannot read", async () => {
    const zipped = encodeBytes(Buffer.from(JSON.stringify(fullRecallResponse())), "gzip");
    fake.setNext({ path: RECALL, bytes: zipped, headers: { "content-encoding": "x-unheard-of" } });
    const proxied = await rawCall(`${PROXY}${RECALL}`, agentHeaders({ "accept-encoding": "gzip" }), recallBody("odd coding"));
    expect(proxied.status).toBe(502);
    expect(JSON.parse(proxied.decoded.toString("utf8"))).toMatchObject({
      error: "upstream_unsupported_encoding",
      details: { store: "fake", content_encoding: "x-unheard-of" },
    });
  });
});

describe("answers the proxy cannot inspect are passed on and logged as failed recalls", () => {
  /** `{"results":[],"pad":"000…"}` of `bytes` bytes, gzip-compressed piece by piece (never whole in memory). */
  async function gzipBomb(bytes: number): Promise<Buffer> {
    const gzip = zlib.createGzip({ level: 9 });
    const out: Buffer[] = [];
    gzip.on("data", (c: Buffer) => out.push(c));
    const done = new Promise((resolve) => gzip.on("end", resolve));
    const head = '{"results":[],"pad":"';
    const tail = '"}';
    gzip.write(head);
    const piece = Buffer.alloc(1024 * 1024, "0");
    for (let left = bytes - head.length - tail.length; left > 0; left -= piece.length) {
      gzip.write(left >= piece.length ? piece : piece.subarray(0, left));
    }
    gzip.end(tail);
    await done;
    return Buffer.concat(out);
  }

  it("a gzip bomb (200 MB inflated): the agent gets all of it, the log says the answer was too large to inspect", async () => {
    const inflated = 200 * 1024 * 1024;
    const bomb = await gzipBomb(inflated);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    fake.setNext({ path: RECALL, bytes: bomb, headers: { "content-encoding": "gzip" } });
    const before = (await proxiedRows()).length;
    // Counted as it arrives: the test must not hold 200 MB either.
    const got = await new Promise<{ status: number; length: number; head: string; encoding: unknown }>((resolve, reject) => {
      const req = http.request(
        `${PROXY}${RECALL}`,
        { method: "POST", headers: agentHeaders({ "accept-encoding": "gzip" }), agent: false },
        (res) => {
          let length = 0;
          let head = "";
          res.on("data", (c: Buffer) => {
            if (head.length < 40) head += c.subarray(0, 40).toString("utf8");
            length += c.length;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, length, head, encoding: res.headers["content-encoding"] }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(recallBody("the bomb"));
    });
    expect(got.status).toBe(200);
    expect(got.encoding).toBeUndefined();
    expect(got.length).toBe(inflated);
    expect(got.head.startsWith('{"results":[],"pad":"000')).toBe(true);

    const rows = await proxiedRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ query: "the bomb", status: "error", error: { code: "remote_answer_too_large" } });
    expect((rows.at(-1)!.error as { message: string }).message).toMatch(/too large to inspect/);
  }, 120_000);

  const answerWith = (contextJson: string, summaryJson = '"A memory"') =>
    `{"results":[{"memory_id":"m-1","summary":${summaryJson},"score":0.9,"context":${contextJson}}],"related_tags":[],"confidence":${JSON.stringify(S1_CONFIDENCE)}}`;
  const nested = (depth: number) => `${'{"x":'.repeat(depth)}1${"}".repeat(depth)}`;

  it.each([
    ["nested 1,500 deep", answerWith(nested(1_500)), /nested more than \d+ levels deep/],
    ["nested 5,000 deep", answerWith(nested(5_000)), /nested more than \d+ levels deep/],
    ["a NUL in a summary", answerWith("null", '"a\\u0000b"'), /NUL/],
    ["an unpaired surrogate in a summary", answerWith("null", '"a\\ud800b"'), /unpaired UTF-16 surrogate/],
    ["not JSON", "{not json", /not JSON/],
    ["not a RecallResponse", '{"memories":[]}', /not a RecallResponse/],
  ])("an answer %s reaches the agent as sent and is logged as a failed recall with the reason", async (_what, raw, reason) => {
    const before = (await proxiedRows()).length;
    fake.setNext({ path: RECALL, raw });
    const direct = await rawCall(`${fake.url}${RECALL}`, agentHeaders({ "accept-encoding": "gzip" }), recallBody("hostile"));
    fake.setNext({ path: RECALL, raw });
    const proxied = await rawCall(`${PROXY}${RECALL}`, agentHeaders({ "accept-encoding": "gzip" }), recallBody("hostile"));
    expect(proxied.status).toBe(200);
    expect(proxied.decoded.equals(direct.decoded)).toBe(true);

    const rows = await proxiedRows();
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ query: "hostile", status: "error", error: { code: "remote_bad_response" } });
    expect((row.error as { message: string }).message).toMatch(reason);
    // Nothing from the answer was stored, and the database takes the next recall.
    expect(row.results).toEqual([]);
    await rawCall(`${PROXY}${RECALL}`, agentHeaders(), recallBody("after the hostile one"));
    expect((await proxiedRows()).at(-1)).toMatchObject({ query: "after the hostile one", status: "ok" });
  });
});
