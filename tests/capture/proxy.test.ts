import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { appUnderTest } from "../support/app-under-test";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_CONTEXT_ID, fullRecallResponse } from "../support/fake-memory-service-fixtures";

/**
 * The recall proxy (/proxy/{store}/…) in-process: the real route handler in front of the loopback
 * memory-service double, on a throw-away PGlite database. What the agent gets through the proxy
 * is compared byte for byte with what the double answers directly.
 */
const AGENT_KEY = "kagura_agent-own-secret-key-0123456789abcdefghij";
const fake = await startFakeMemoryService({ apiKey: AGENT_KEY });
// A port that was listening a moment ago and is now closed: "the service is down".
const gone = await startFakeMemoryService();
const goneUrl = gone.url;
await gone.close();

const app = appUnderTest("proxy");
delete process.env.AUTH_PASSWORD;
for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE_")) delete process.env[key];
// The store's own key is not the agent's: the proxy must forward the agent's, never this one.
const STORE_KEY = "kagura_dashboard-store-key-not-the-agents";
process.env.REMOTE_STORES = JSON.stringify([
  { name: "fake", base_url: fake.url, api_key: STORE_KEY, context_id: FAKE_CONTEXT_ID, timeout_ms: 3000 },
  { name: "slow", base_url: fake.url, api_key: STORE_KEY, context_id: FAKE_CONTEXT_ID, timeout_ms: 300 },
  { name: "down", base_url: goneUrl, api_key: STORE_KEY, context_id: FAKE_CONTEXT_ID, timeout_ms: 3000 },
]);

const route = await import("@/app/proxy/[store]/[[...path]]/route");
const { settleCaptures } = await import("@/lib/capture/server/proxy");
const { getDatabase, getPrisma } = await import("@/lib/db/server");
const { createApiKey } = await import("@/lib/auth/server/keys");

// Everything the app prints while these tests run, to prove the agent's key is never in it.
const printed: string[] = [];
for (const method of ["log", "info", "warn", "error", "debug"] as const) {
  const original = console[method].bind(console);
  vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    printed.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
    original(...args);
  });
}

beforeAll(async () => {
  await getDatabase();
});
afterEach(() => {
  fake.reset();
  delete process.env.AUTH_PASSWORD;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await fake.close();
  await app.close();
});

interface Exchange {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

async function read(response: Response): Promise<Exchange> {
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The agent's call through the proxy: the route handler as Next calls it. */
async function viaProxy(
  store: string,
  rest: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const request = new NextRequest(`http://127.0.0.1:3000/proxy/${store}${rest}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    body: init.body,
    headers: {
      host: "127.0.0.1:3000",
      authorization: `Bearer ${AGENT_KEY}`,
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
  });
  const handler = route[(init.method ?? (init.body === undefined ? "GET" : "POST")) as "GET" | "POST"];
  return read(await handler(request, { params: Promise.resolve({ store }) }));
}

/** The same call straight to the double. */
async function direct(rest: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${fake.url}${rest}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    body: init.body,
    headers: {
      authorization: `Bearer ${AGENT_KEY}`,
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
  });
  return read(response);
}

/** The headers that matter to an agent: everything but the per-answer Date and connection handling. */
function mattering(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) return;
    if (name.startsWith("x-frame-options") || name.startsWith("content-security-policy") || name.startsWith("referrer-policy"))
      return;
    if (name === "cross-origin-opener-policy" || name === "x-content-type-options") return;
    // The one header the proxy adds to: no-transform, so Next's compression leaves the bytes alone.
    if (name === "cache-control") return;
    out[name] = value;
  });
  return out;
}

async function expectSame(
  rest: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  script?: () => void,
): Promise<Exchange> {
  script?.();
  const want = await direct(rest, init);
  script?.();
  const got = await viaProxy("fake", rest, init);
  expect(got.status).toBe(want.status);
  expect(got.bytes.equals(want.bytes)).toBe(true);
  expect(mattering(got.headers)).toEqual(mattering(want.headers));
  expect(got.headers.get("cache-control")).toBe(
    want.headers.get("cache-control") ? `${want.headers.get("cache-control")}, no-transform` : "no-transform",
  );
  return got;
}

async function proxiedRows() {
  await settleCaptures();
  const prisma = await getPrisma();
  return prisma.recall.findMany({ where: { source: "proxy" }, orderBy: { createdAt: "asc" } });
}

const RECALL = "/api/v1/memory/recall";
const recallBody = (query: string, k = 3) => JSON.stringify({ query, k, filters: { context_id: FAKE_CONTEXT_ID } });

describe("through /proxy/{store}/…, the agent gets what the service answered, byte for byte", () => {
  it("a recall, logged afterwards as a recall with source proxy", async () => {
    const before = (await proxiedRows()).length;
    const got = await expectSame(RECALL, { body: recallBody("why do we get 401s", 2) });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.bytes.toString("utf8"))).toEqual({
      ...fullRecallResponse(),
      results: (fullRecallResponse().results as unknown[]).slice(0, 2),
    });

    const rows = await proxiedRows();
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ source: "proxy", store: "fake", query: "why do we get 401s", k: 2, status: "ok" });
    // The service's block kept as stated (lib/recall/README.md "Wire translation").
    expect(row).toMatchObject({ level: "high", topScore: 0.919, prominence: 0.559, resultCount: 8, backgroundDerived: true });
    expect((row.results as { memory_id: string }[]).map((r) => r.memory_id)).toEqual(
      (fullRecallResponse().results as { memory_id: string }[]).slice(0, 2).map((r) => r.memory_id),
    );
    expect(row.latencyMs).toBeGreaterThan(0);

    // The service got the agent's own request: its key, its body, not the store's key.
    const seen = fake.requests.at(-1)!;
    expect(seen.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(seen.body).toEqual(JSON.parse(recallBody("why do we get 401s", 2)));
  });

  it("the selector block of an answer is logged as stated", async () => {
    const { selectorRecallResponse } = await import("../support/fake-memory-service-fixtures");
    await expectSame(RECALL, { body: recallBody("selector") }, () =>
      fake.setNext({ path: RECALL, json: selectorRecallResponse() }),
    );
    const row = (await proxiedRows()).at(-1)!;
    expect(row).toMatchObject({
      query: "selector",
      selectorApplied: true,
      selectorModel: "claude-haiku-4-5",
      selectorDropped: 2,
    });
  });

  it("a list call, query string and all, unlogged", async () => {
    const before = (await proxiedRows()).length;
    await expectSame(`/api/v1/memory/list?context_id=${FAKE_CONTEXT_ID}&q=auth&limit=2&tags=a&tags=b`);
    const seen = fake.requests.at(-1)!;
    expect(seen.query).toEqual({ context_id: FAKE_CONTEXT_ID, q: "auth", limit: "2", tags: ["a", "b"] });
    expect(await proxiedRows()).toHaveLength(before);
  });

  it("a write call, unlogged, and its validation error", async () => {
    const before = (await proxiedRows()).length;
    const body = JSON.stringify({ summary: "Rotate the signing keys every 90 days", content: "…", tags: ["auth"] });
    const wrote = await viaProxy("fake", "/api/v1/memory/remember", { body });
    expect(wrote.status).toBe(201);
    expect(JSON.parse(wrote.bytes.toString("utf8"))).toMatchObject({ status: "success", scope: "working" });
    expect(fake.requests.at(-1)!.body).toEqual(JSON.parse(body));
    // Fresh ids make two writes differ, so byte identity is checked on a scripted answer and on the error.
    const raw = '{"status":"success",  "memory_id":"d0e1f2a3-0000-4000-8000-000000000001","scope":"working","lint":[]}\n';
    await expectSame("/api/v1/memory/remember", { body }, () =>
      fake.setNext({
        path: "/api/v1/memory/remember",
        raw,
        status: 201,
        headers: { "x-request-id": "req-42", "cache-control": "private, max-age=0" },
      }),
    );
    await expectSame("/api/v1/memory/remember", { body: JSON.stringify({ summary: "short" }) });
    expect(await proxiedRows()).toHaveLength(before);
  });

  it("the service's errors as it said them: validation, auth, unavailable with Retry-After, a malformed body", async () => {
    const before = (await proxiedRows()).length;
    const invalid = await expectSame(RECALL, { body: recallBody("too many", 500) });
    expect(invalid.status).toBe(422);
    const unauthorized = await expectSame(RECALL, {
      body: recallBody("wrong key"),
      headers: { authorization: "Bearer kagura_wrong" },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBe("Bearer");
    const unavailable = await expectSame(RECALL, { body: recallBody("busy") }, () => fake.setNext({ path: RECALL, error: 503 }));
    expect(unavailable.headers.get("retry-after")).toBe("5");
    const garbage = await expectSame(RECALL, { body: recallBody("garbage") }, () =>
      fake.setNext({ path: RECALL, raw: "{not json", status: 200 }),
    );
    expect(garbage.bytes.toString("utf8")).toBe("{not json");
    const unknown = await expectSame("/api/v1/nowhere");
    expect(unknown.status).toBe(404);
    // The service's errors are not recalls; an answered recall it could not read is a failed one.
    const rows = await proxiedRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ query: "garbage", status: "error", error: { code: "remote_bad_response" } });

    // A request the log cannot read (an empty context_id is no RecallRequest) passes, and is a warning.
    const odd = JSON.stringify({ query: "odd", k: 2, filters: { context_id: FAKE_CONTEXT_ID }, context_id: "" });
    await expectSame(RECALL, { body: odd }, () => fake.setNext({ path: RECALL, json: fullRecallResponse() }));
    expect(await proxiedRows()).toHaveLength(before + 1);
  });

  it("streams: the first piece reaches the agent on its own, before the service has written the rest", async () => {
    const pieces = ["data: one\n\n", "data: two\n\n", "data: three\n\n"];
    fake.setNext({ path: "/mcp", stream: pieces, intervalMs: 150 });
    const request = new NextRequest("http://127.0.0.1:3000/proxy/fake/mcp", {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      headers: { host: "127.0.0.1:3000", authorization: `Bearer ${AGENT_KEY}`, "content-type": "application/json" },
    });
    const response = await route.POST(request, { params: Promise.resolve({ store: "fake" }) });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString("utf8")).toBe(pieces[0]);
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += Buffer.from(value).toString("utf8");
    }
    expect(rest).toBe(pieces.slice(1).join(""));
  });
});

describe("the dashboard's own answers, in its envelope", () => {
  it("502 when the service is down, 504 when it does not answer in time, 404 for an unknown store", async () => {
    const down = await viaProxy("down", RECALL, { body: recallBody("anyone there") });
    expect(down.status).toBe(502);
    const downJson = JSON.parse(down.bytes.toString("utf8"));
    expect(downJson).toMatchObject({ error: "upstream_unreachable", details: { store: "down", reason: "connection refused" } });
    expect(downJson.message).toContain(goneUrl);

    fake.setNext({ path: RECALL, hang: true });
    const slow = await viaProxy("slow", RECALL, { body: recallBody("hello?") });
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.bytes.toString("utf8"))).toMatchObject({ error: "upstream_timeout", details: { timeout_ms: 300 } });

    const unknown = await viaProxy("nope", RECALL, { body: recallBody("x") });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.bytes.toString("utf8"))).toMatchObject({
      error: "unknown_store",
      details: { stores: ["fake", "slow", "down"] },
    });
  });

  it("the guard of /api: cross-site writes and unknown hosts are refused", async () => {
    const crossSite = await viaProxy("fake", RECALL, {
      body: recallBody("x"),
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.bytes.toString("utf8")).error).toBe("cross_site_request");
    const rebound = await viaProxy("fake", RECALL, { body: recallBody("x"), headers: { host: "rebind.attacker.example" } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.bytes.toString("utf8")).error).toBe("host_not_allowed");
    expect(fake.requests).toHaveLength(0);
  });

  it("exposed (sign-in on): the dashboard's key rides in Recall-Inspector-Auth, the agent's Authorization goes to the service", async () => {
    process.env.AUTH_PASSWORD = "a long enough team password";
    const { key } = await createApiKey(await getPrisma(), { name: "agent capture", scope: "ingest" });

    const withoutKey = await viaProxy("fake", RECALL, { body: recallBody("exposed") });
    expect(withoutKey.status).toBe(401);
    expect(JSON.parse(withoutKey.bytes.toString("utf8"))).toMatchObject({ error: "unauthorized" });
    expect(fake.requests).toHaveLength(0);

    const wrongKey = await viaProxy("fake", RECALL, {
      body: recallBody("exposed"),
      headers: { "recall-inspector-auth": "Bearer ri_not-a-key" },
    });
    expect(wrongKey.status).toBe(401);

    const before = (await proxiedRows()).length;
    const ok = await viaProxy("fake", RECALL, {
      body: recallBody("exposed"),
      headers: { "recall-inspector-auth": `Bearer ${key}`, cookie: "recall_inspector_session=abc; theirs=1" },
    });
    expect(ok.status).toBe(200);
    const seen = fake.requests.at(-1)!;
    expect(seen.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(seen.headers["recall-inspector-auth"]).toBeUndefined();
    expect(seen.headers.cookie).toBe("theirs=1");
    expect(await proxiedRows()).toHaveLength(before + 1);
  });
});

describe("the agent's key", () => {
  it("appears nowhere in the database or in anything the app printed", async () => {
    await settleCaptures();
    const prisma = await getPrisma();
    const tables = await prisma.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
    expect(tables.length).toBeGreaterThan(3);
    let rows = 0;
    for (const { name } of tables) {
      const dump = await prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
      rows += dump.length;
      for (const { row } of dump) {
        expect(row).not.toContain(AGENT_KEY);
        expect(row).not.toContain(AGENT_KEY.slice("kagura_".length, 30));
      }
    }
    expect(rows).toBeGreaterThan(0);
    expect(printed.length).toBeGreaterThan(0); // the unreadable request's warning, at least
    for (const line of printed) expect(line).not.toContain(AGENT_KEY);
  });
});
