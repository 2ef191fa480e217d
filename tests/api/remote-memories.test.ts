import { afterAll, afterEach, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_API_KEY, FAKE_CONTEXT_ID, FAKE_MEMORIES } from "../support/fake-memory-service-fixtures";

/**
 * GET /api/memories and /api/memories/stats in-process with a remote store: the real route
 * handlers, the real client, and the loopback fake of the memory service. Two stores point at
 * the fake: "fake" with the right key, "fake-badkey" with a wrong one. The embedded store is a
 * throw-away PGlite database without the demo corpus.
 */
const fake = await startFakeMemoryService();
const app = appUnderTest("remote-memories");
for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE_")) delete process.env[key];
process.env.REMOTE_STORES = JSON.stringify([
  {
    name: "fake",
    label: "Fake memory service",
    base_url: fake.url,
    api_key: FAKE_API_KEY,
    context_id: FAKE_CONTEXT_ID,
    timeout_ms: 3000,
  },
  { name: "fake-badkey", base_url: fake.url, api_key: "kagura_not-the-right-key", context_id: FAKE_CONTEXT_ID, timeout_ms: 3000 },
]);

const memoriesRoute = await import("@/app/api/memories/route");
const { toMemoryListPage, decodeRemoteCursor, encodeRemoteCursor } = await import("@/lib/stores/server/remote/remote-memories");
const statsRoute = await import("@/app/api/memories/stats/route");

afterEach(() => fake.reset());

afterAll(async () => {
  await fake.close();
  await app.close();
});

const list = (query: string) => callRoute(memoriesRoute.GET, { url: `/api/memories?${query}` });
const stats = (query: string) => callRoute(statsRoute.GET, { url: `/api/memories/stats?${query}` });
const listRequests = () => fake.requests.filter((r) => r.path === "/api/v1/memory/list");

describe("GET /api/memories?store=<remote>", () => {
  it("maps the service's list to {items, next_cursor, total}", async () => {
    const { status, json } = await list("store=fake");
    expect(status).toBe(200);
    expect(json.total).toBe(FAKE_MEMORIES.length);
    expect(json.next_cursor).toBeNull();
    expect(json.items).toHaveLength(FAKE_MEMORIES.length);
    const first = FAKE_MEMORIES[0]!;
    expect(json.items[0]).toEqual({
      id: first.id,
      summary: first.summary,
      content: null,
      type: first.type,
      tags: [],
      importance: first.importance,
      created_at: first.created_at,
      updated_at: first.updated_at,
      embedding_model: null,
      scope: first.scope,
    });

    const [request] = listRequests();
    expect(request?.query).toEqual({ context_id: FAKE_CONTEXT_ID, limit: "50", offset: "0" });
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
  });

  it("pages through an opaque cursor that carries the offset", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; json: { items: { id: string }[]; next_cursor: string | null; total: number } } = await list(
        `store=fake&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(res.json.total).toBe(FAKE_MEMORIES.length);
      seen.push(...res.json.items.map((m) => m.id));
      cursor = res.json.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);

    expect(pages).toBe(2);
    expect(seen).toEqual(FAKE_MEMORIES.map((m) => m.id));
    expect(listRequests().map((r) => [r.query.limit, r.query.offset])).toEqual([
      ["3", "0"],
      ["3", "3"],
    ]);
  });

  it("refuses a cursor it did not issue for that store", async () => {
    const first = await list("store=fake&limit=1");
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const garbage = await list("store=fake&cursor=not-a-cursor");
    expect(garbage.status).toBe(422);
    expect(garbage.json.error).toBe("invalid_cursor");
    const otherStore = await list(`store=fake-badkey&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expect(otherStore.status).toBe(422);
    expect(otherStore.json.error).toBe("invalid_cursor");
  });

  it("passes q and type through to the service", async () => {
    const { status, json } = await list("store=fake&q=%20JWT%20&type=bug-fix");
    expect(status).toBe(200);
    expect(json.items.map((m: { id: string }) => m.id)).toEqual([FAKE_MEMORIES[0]!.id]);
    expect(json.total).toBe(1);
    expect(listRequests()[0]?.query).toMatchObject({ q: "JWT", type: "bug-fix" });

    const none = await list("store=fake&q=nothing-like-this");
    expect(none.json).toEqual({ items: [], next_cursor: null, total: 0 });
  });

  it("refuses a tag filter with 422 and says why, without calling the service", async () => {
    const { status, json } = await list("store=fake&tag=auth");
    expect(status).toBe(422);
    expect(json.error).toBe("unsupported_filter");
    expect(json.message).toMatch(/"fake".*without their tags.*remove the tag filter/);
    expect(listRequests()).toHaveLength(0);
  });

  it("answers a rejected key with 502 and the actionable message", async () => {
    const { status, json } = await list("store=fake-badkey");
    expect(status).toBe(502);
    expect(json.error).toBe("remote_auth_failed");
    expect(json.message).toBe(
      'The remote store "fake-badkey" rejected its API key (invalid or expired): set a valid key in REMOTE_STORES[1].api_key.',
    );
    expect(JSON.stringify(json)).not.toContain("kagura_not-the-right-key");
  });

  it("answers the service's other failures with their status and message", async () => {
    fake.setNext({ path: "/api/v1/memory/list", error: 503 });
    const unavailable = await list("store=fake");
    expect(unavailable.status).toBe(503);
    expect(unavailable.json.message).toMatch(/"fake"/);

    fake.setNext({ path: "/api/v1/memory/list", raw: "{not json" });
    const malformed = await list("store=fake");
    expect(malformed.status).toBe(502);
    expect(malformed.json.error).toBe("remote_bad_response");
  });

  it("answers an unknown store with 404 and the store names there are", async () => {
    const { status, json } = await list("store=nope");
    expect(status).toBe(404);
    expect(json.error).toBe("unknown_store");
    expect(json.message).toContain('There is no store named "nope"');
    expect(json.details.stores).toEqual(["embedded", "fake", "fake-badkey"]);
  });

  it("keeps validating the query like before (limit 1–200)", async () => {
    const { status, json } = await list("store=fake&limit=0");
    expect(status).toBe(422);
    expect(json.error).toBe("validation_failed");
  });
});

describe("GET /api/memories/stats?store=<remote>", () => {
  it("maps the service's stats to the embedded shape plus the scope counts", async () => {
    const { status, json } = await stats("store=fake");
    expect(status).toBe(200);
    expect(json).toEqual({
      total: 4,
      by_type: { "bug-fix": 1, decision: 1, note: 1, schedule: 1 },
      embedding_model: null,
      stale_vectors: 0,
      remote: { store: "fake", working_count: 1, persistent_count: 3, by_importance: { high: 1, medium: 2, low: 1 } },
    });
    expect(fake.requests.find((r) => r.path === "/api/v1/memory/stats")?.query).toEqual({ context_id: FAKE_CONTEXT_ID });
  });

  it("orders the types by count, largest first", async () => {
    fake.setNext({ path: "/api/v1/memory/stats", json: { total_count: 6, by_type: { note: 1, fact: 4, decision: 1 } } });
    const { json } = await stats("store=fake");
    expect(Object.entries(json.by_type)).toEqual([
      ["fact", 4],
      ["note", 1],
      ["decision", 1],
    ]);
    expect(json.remote).toEqual({ store: "fake", working_count: null, persistent_count: null, by_importance: null });
  });

  it("answers a rejected key with 502 and an unknown store with 404", async () => {
    const bad = await stats("store=fake-badkey");
    expect(bad.status).toBe(502);
    expect(bad.json.message).toMatch(/rejected its API key.*REMOTE_STORES\[1\]\.api_key/);
    const unknown = await stats("store=nope");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe("unknown_store");
  });
});

describe("the embedded store, without store or with store=embedded", () => {
  it("answers as before", async () => {
    const plain = await list("");
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual({ items: [], next_cursor: null, total: 0 });
    expect((await list("store=embedded")).json).toEqual(plain.json);

    const s = await stats("");
    expect(s.status).toBe(200);
    expect(s.json).toEqual({ total: 0, by_type: {}, embedding_model: expect.any(String), stale_vectors: 0 });
    expect((await stats("store=embedded")).json).toEqual(s.json);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the list mapping when the service leaves things out", () => {
  const row = (id: string) => ({ id });
  it("fills a bare row with nulls and empties, not guesses about content or tags", () => {
    const page = toMemoryListPage("s", { limit: 5, offset: 0 }, { memories: [row("a")], total: 1, has_more: false });
    expect(page.items[0]).toEqual({
      id: "a",
      summary: "",
      content: null,
      type: "",
      tags: [],
      importance: 0.5,
      created_at: "",
      updated_at: null,
      embedding_model: null,
    });
  });

  it("pages by has_more, else by total, else by a full page; never past an empty page", () => {
    const next = (p: { next_cursor: string | null }) => (p.next_cursor ? decodeRemoteCursor("s", p.next_cursor) : null);
    expect(next(toMemoryListPage("s", { limit: 2, offset: 4 }, { memories: [row("a"), row("b")], has_more: true }))).toBe(6);
    expect(
      next(toMemoryListPage("s", { limit: 2, offset: 4 }, { memories: [row("a"), row("b")], has_more: false, total: 99 })),
    ).toBeNull();
    expect(next(toMemoryListPage("s", { limit: 2, offset: 0 }, { memories: [row("a"), row("b")], total: 3 }))).toBe(2);
    expect(next(toMemoryListPage("s", { limit: 2, offset: 1 }, { memories: [row("a"), row("b")], total: 3 }))).toBeNull();
    expect(next(toMemoryListPage("s", { limit: 2, offset: 0 }, { memories: [row("a"), row("b")] }))).toBe(2);
    expect(next(toMemoryListPage("s", { limit: 2, offset: 0 }, { memories: [row("a")] }))).toBeNull();
    expect(next(toMemoryListPage("s", { limit: 2, offset: 8 }, { memories: [], has_more: true, total: 20 }))).toBeNull();
  });

  it("binds a cursor to its store", () => {
    expect(decodeRemoteCursor("s", encodeRemoteCursor("s", 7))).toBe(7);
    expect(() => decodeRemoteCursor("t", encodeRemoteCursor("s", 7))).toThrow(/not one this API issued for the store "t"/);
    expect(() => decodeRemoteCursor("s", Buffer.from(JSON.stringify({ v: 1, s: "s", o: -1 })).toString("base64url"))).toThrow();
  });
});
