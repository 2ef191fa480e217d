import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * The bad inputs every route must refuse, against the real route handlers (PGlite, USE-lite): each answers
 * 4xx in the envelope, and the memories and recalls tables move exactly as the answers say.
 */
const app = appUnderTest("bad-input");

const memoriesRoute = await import("@/app/api/memories/route");
const memoryRoute = await import("@/app/api/memories/[id]/route");
const recallRoute = await import("@/app/api/recall/route");
const recallsRoute = await import("@/app/api/recalls/route");
const insightsRoute = await import("@/app/api/insights/route");
const exportRoute = await import("@/app/api/recalls/export/route");
const retentionRoute = await import("@/app/api/recalls/retention/route");
const labelsRoute = await import("@/app/api/recalls/[id]/labels/route");
const profilesRoute = await import("@/app/api/profiles/route");
const fitRoute = await import("@/app/api/profiles/fit/route");
const whatIfRoute = await import("@/app/api/what-if/route");
const storeProfileRoute = await import("@/app/api/stores/[name]/profile/route");
const { getDatabase } = await import("@/lib/db/server");

const NUL = "a\u0000b";
const LONE_HIGH = "a\uD800b";
const LONE_LOW = "\uDC00tail";

async function counts(): Promise<{ memories: number; recalls: number }> {
  const { prisma } = await getDatabase();
  return { memories: await prisma.memory.count(), recalls: await prisma.recall.count() };
}

/** `{…}` nested `depth` levels deep. */
function deep(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

function expectEnvelope(json: { error?: unknown; message?: unknown; details?: unknown }) {
  expect(typeof json.error).toBe("string");
  expect(typeof json.message).toBe("string");
  expect(typeof json.details).toBe("object");
}

const response = {
  results: [{ memory_id: "r-1", summary: "From production", score: 0.9 }],
  confidence: { level: "moderate", top_score: 0.7, prominence: 0.3, result_count: 1 },
};

beforeAll(async () => {
  const { status } = await callRoute(memoriesRoute.POST, {
    body: { memories: [{ id: "seed", summary: "Kafka consumer lag alerts page the on-call engineer." }] },
  });
  expect(status).toBe(201);
});

afterAll(async () => {
  await app.close();
});

describe("NUL and unpaired surrogates", () => {
  it("a memory batch [good, NUL, good, surrogate…] keeps the good items and rejects each bad one", async () => {
    const before = await counts();
    const { status, json } = await callRoute(memoriesRoute.POST, {
      body: {
        memories: [
          { summary: "first good memory about deploys" },
          { summary: NUL },
          { summary: "second good memory about rollbacks" },
          { summary: LONE_HIGH },
          { summary: "fine summary", tags: [LONE_LOW] },
          { summary: "fine summary", content: `x${NUL}` },
          { id: "ok-id", summary: "fine", type: NUL },
        ],
      },
    });
    expect(status).toBe(201);
    expect(json.created).toBe(2);
    expect(json.rejected).toBe(5);
    expect(json.results.map((r: { status: string }) => r.status)).toEqual([
      "created",
      "rejected",
      "created",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
    ]);
    expect(json.results[1].errors[0]).toMatchObject({ path: ["summary"], message: expect.stringMatching(/NUL/) });
    expect(json.results[3].errors[0].message).toMatch(/surrogate/);
    expect(json.results[4].errors[0].path).toEqual(["tags", "0"]);
    expect(await counts()).toEqual({ ...before, memories: before.memories + 2 });
  });

  it("a JSON Lines import rejects the NUL line by its line number and keeps the rest", async () => {
    const before = await counts();
    const lines = [
      JSON.stringify({ summary: "jsonl good one" }),
      JSON.stringify({ summary: `bad ${NUL}` }),
      JSON.stringify({ summary: "jsonl good two" }),
    ].join("\n");
    const { status, json } = await callRoute(memoriesRoute.POST, {
      rawBody: lines,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({ created: 2, rejected: 1 });
    expect(json.results[1]).toMatchObject({ line: 2, status: "rejected" });
    expect(await counts()).toEqual({ ...before, memories: before.memories + 2 });
  });

  it.each([
    ["a NUL query", { query: `kafka ${NUL}` }],
    ["a lone surrogate in the query", { query: `kafka ${LONE_HIGH}` }],
    ["a NUL store name", { query: "kafka", store: NUL }],
    ["a NUL tag filter", { query: "kafka", filters: { tags: [NUL] } }],
  ])("a console recall with %s answers 422 and logs nothing", async (_name, body) => {
    const before = await counts();
    const { status, json } = await callRoute(recallRoute.POST, { body });
    expect(status).toBe(422);
    expectEnvelope(json);
    expect(json.error).toBe("validation_failed");
    expect(await counts()).toEqual(before);
  });

  it("an ingest batch keeps its good items and rejects NUL, surrogates and deep nesting per item", async () => {
    const before = await counts();
    const good = (query: string) => ({ store: "prod", request: { query }, response });
    // 20,000 levels: JSON.stringify itself would overflow, so the deep part is spliced in as text.
    const deepText = '{"x":'.repeat(20_000) + '"leaf"' + "}".repeat(20_000);
    const body = {
      recalls: [
        good("good one"),
        { ...good("nul in filters"), request: { query: "q", filters: { client: NUL } } },
        { ...good("unknown key"), request: { query: "q", filters: { custom: { nested: [LONE_LOW] } } } },
        { ...good("deep"), request: { query: "q", filters: "__DEEP__" } },
        { ...good("nul in a result"), response: { ...response, results: [{ memory_id: NUL }] } },
        { ...good("key"), request: { query: "q", filters: { [`k${NUL}`]: 1 } } },
        { ...good("external"), external_id: `e${NUL}` },
        good("good two"),
      ],
    };
    const { status, json } = await callRoute(recallsRoute.POST, {
      rawBody: JSON.stringify(body).replace('"__DEEP__"', deepText),
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({ accepted: 2, duplicates: 0, rejected: 6 });
    expect(json.results.map((r: { status: string }) => r.status)).toEqual([
      "accepted",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "accepted",
    ]);
    expect(json.results[1].errors[0].path).toEqual(["request", "filters", "client"]);
    expect(json.results[2].errors[0].path).toEqual(["request", "filters", "custom", "nested", "0"]);
    expect(json.results[3].errors[0].message).toMatch(/nested more than 32 levels/);
    expect(await counts()).toEqual({ ...before, recalls: before.recalls + 2 });
  });

  it.each([
    ["/api/recalls?q=a%00b", recallsRoute.GET],
    ["/api/recalls?store=%00", recallsRoute.GET],
    ["/api/recalls?dropped_memory=x%00", recallsRoute.GET],
    ["/api/insights?store=a%00", insightsRoute.GET],
    ["/api/memories?q=a%00", memoriesRoute.GET],
    ["/api/memories?tag=%00", memoriesRoute.GET],
    ["/api/recalls/export?q=%00", exportRoute.GET],
  ])("GET %s answers 422", async (url, handler) => {
    const { status, json } = await callRoute(handler, { url });
    expect(status).toBe(422);
    expectEnvelope(json);
  });

  it("a memory id with NUL answers 422 on GET and DELETE and deletes nothing", async () => {
    const before = await counts();
    for (const handler of [memoryRoute.GET, memoryRoute.DELETE]) {
      const { status, json } = await callRoute(handler, {
        method: handler === memoryRoute.GET ? "GET" : "DELETE",
        params: { id: `seed${NUL}` },
      });
      expect(status).toBe(422);
      expectEnvelope(json);
    }
    expect(await counts()).toEqual(before);
  });
});

describe("dates outside 1970–9999", () => {
  const cursorAt = (iso: string, id = "00000000-0000-4000-8000-000000000000") =>
    Buffer.from(JSON.stringify([iso, id])).toString("base64url");

  it.each([
    ["/api/recalls?from=0000-01-01T00:00:00Z", recallsRoute.GET],
    ["/api/recalls?to=1969-12-31T23:59:59Z", recallsRoute.GET],
    [`/api/recalls?cursor=${cursorAt("+275760-09-13T00:00:00.000Z")}`, recallsRoute.GET],
    [`/api/recalls?cursor=${cursorAt("0000-01-01T00:00:00.000Z")}`, recallsRoute.GET],
    ["/api/insights?from=0000-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", insightsRoute.GET],
    ["/api/insights?to=+275760-09-13T00:00:00Z", insightsRoute.GET],
    [`/api/memories?cursor=${cursorAt("+275760-09-13T00:00:00.000Z", "seed")}`, memoriesRoute.GET],
    [`/api/memories?cursor=${cursorAt("0000-01-01T00:00:00.000Z", "seed")}`, memoriesRoute.GET],
    ["/api/recalls/export?from=0000-01-01T00:00:00Z", exportRoute.GET],
  ])("GET %s answers 422", async (url, handler) => {
    const { status, json } = await callRoute(handler, { url });
    expect(status).toBe(422);
    expectEnvelope(json);
  });

  it("a memory or an ingested recall dated year 0 or 10000 is rejected per item", async () => {
    const before = await counts();
    const memories = await callRoute(memoriesRoute.POST, {
      body: {
        memories: [
          { summary: "dated well", created_at: "2024-05-01T10:00:00Z" },
          { summary: "dated year zero", created_at: "0000-01-01T00:00:00Z" },
          { summary: "dated 1969", created_at: "1969-12-31T23:59:59Z" },
        ],
      },
    });
    expect(memories.status).toBe(201);
    expect(memories.json).toMatchObject({ created: 1, rejected: 2 });
    expect(memories.json.results[1].errors[0]).toMatchObject({
      path: ["created_at"],
      message: expect.stringMatching(/1970–9999/),
    });
    const recalls = await callRoute(recallsRoute.POST, {
      body: {
        recalls: [
          { store: "prod", request: { query: "dated" }, response, created_at: "0000-01-01T00:00:00Z" },
          { store: "prod", request: { query: "dated" }, response, created_at: "2024-05-01T10:00:00Z" },
        ],
      },
    });
    expect(recalls.status).toBe(201);
    expect(recalls.json).toMatchObject({ accepted: 1, rejected: 1 });
    expect(await counts()).toEqual({ memories: before.memories + 1, recalls: before.recalls + 1 });
  });
});

describe("bodies", () => {
  it("a chunked body past the limit is cut while streaming (413) and never read to the end", async () => {
    const before = await counts();
    let pulled = 0;
    const chunk = new TextEncoder().encode(`{"memories":[${'{"summary":"x"},'.repeat(65_536)}`);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        // 300 MB if read to the end.
        if (pulled > 300_000_000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new NextRequest("http://localhost/api/memories", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as unknown as ConstructorParameters<typeof NextRequest>[1]);
    const answer = await memoriesRoute.POST(request, { params: Promise.resolve({}) });
    expect(answer.status).toBe(413);
    expectEnvelope(await answer.json());
    expect(pulled).toBeLessThan(40_000_000);
    expect(await counts()).toEqual(before);
  });

  it("retention refuses a NUL key and a deep body with 422 and deletes nothing", async () => {
    const before = await counts();
    for (const body of [
      { keep_days: 1, [`x${NUL}`]: 1 },
      { keep_days: 1, dry_run: deep(40) },
    ]) {
      const { status, json } = await callRoute(retentionRoute.POST, { body });
      expect(status).toBe(422);
      expectEnvelope(json);
    }
    expect(await counts()).toEqual(before);
  });
});

describe("methods and exports", () => {
  it.each([
    ["PUT", memoriesRoute.PUT, "/api/memories", /GET, POST/],
    ["PATCH", memoryRoute.PATCH, "/api/memories/seed", /GET, DELETE/],
    ["DELETE", recallsRoute.DELETE, "/api/recalls", /GET, POST/],
    ["POST", insightsRoute.POST, "/api/insights", /GET/],
    ["GET", retentionRoute.GET, "/api/recalls/retention", /POST/],
  ])("%s on a route that does not take it answers 405 in the envelope", async (method, handler, url, allowed) => {
    const before = await counts();
    const answer = await handler(new NextRequest(new URL(url, "http://localhost"), { method }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toMatch(allowed);
    const json = await answer.json();
    expectEnvelope(json);
    expect(json.error).toBe("method_not_allowed");
    expect(await counts()).toEqual(before);
  });

  it("an export whose first page fails answers in the envelope instead of cutting a 200 stream", async () => {
    const { prisma } = await getDatabase();
    const original = prisma.$queryRaw;
    // The database refusing the export's query (it reads by raw SQL), as a filter it cannot run would.
    (prisma as { $queryRaw: unknown }).$queryRaw = () => Promise.reject(new Error("invalid input syntax"));
    try {
      const { status, json } = await callRoute(exportRoute.GET, { url: "/api/recalls/export?format=csv" });
      expect(status).toBe(500);
      expectEnvelope(json);
    } finally {
      (prisma as { $queryRaw: unknown }).$queryRaw = original;
    }
    const ok = await exportRoute.GET(new NextRequest("http://localhost/api/recalls/export?format=jsonl"), {
      params: Promise.resolve({}),
    });
    expect(ok.status).toBe(200);
    expect((await ok.text()).trim().split("\n").length).toBe((await counts()).recalls);
  });
});

describe("every text field through the one string rule", () => {
  let recallId = "";
  beforeAll(async () => {
    const { status, json } = await callRoute(recallRoute.POST, { body: { query: "kafka lag", search_mode: "keyword" } });
    expect(status).toBe(200);
    recallId = json.id;
  });

  const profileCount = async () => (await getDatabase()).prisma.thresholdProfile.count();
  const assignments = async () => (await getDatabase()).prisma.storeProfile.count();

  it.each([
    ["a NUL", NUL],
    ["an unpaired high surrogate", LONE_HIGH],
    ["an unpaired low surrogate", LONE_LOW],
  ])(
    "%s answers 422 in the envelope on labels, profiles, what-if and a store's profile, and stores nothing",
    async (_what, bad) => {
      const before = { ...(await counts()), profiles: await profileCount(), assignments: await assignments() };
      const calls = [
        callRoute(labelsRoute.PUT, { method: "PUT", params: { id: recallId }, body: { labeler: bad } }),
        callRoute(labelsRoute.PUT, { method: "PUT", params: { id: recallId }, body: { results: { [bad]: true } } }),
        callRoute(profilesRoute.POST, { body: { name: "nul-test", description: bad } }),
        callRoute(whatIfRoute.POST, { body: { profile: bad } }),
        callRoute(whatIfRoute.POST, { body: { profile: "default", filters: { store: bad } } }),
        callRoute(storeProfileRoute.PUT, { method: "PUT", params: { name: "embedded" }, body: { profile: bad } }),
        callRoute(fitRoute.POST, { body: { recall_filters: {}, name: "fit-nul", description: bad } }),
      ];
      for (const { status, json } of await Promise.all(calls)) {
        expect(status).toBe(422);
        expectEnvelope(json);
      }
      expect({ ...(await counts()), profiles: await profileCount(), assignments: await assignments() }).toEqual(before);
      const { json } = await callRoute(recallsRoute.GET, { url: "/api/recalls?label=labeled" });
      expect(json.items.map((r: { id: string }) => r.id)).not.toContain(recallId);
    },
  );

  it("a fit's recall_filters are History's filters: an unknown key, a NUL in one, or 40 levels deep answer 422 and save nothing", async () => {
    const before = await profileCount();
    for (const recall_filters of [{ zzz: NUL }, { zzz: deep(40) }, { zzz: "x" }, { store: NUL }, { level: "loud" }]) {
      const { status, json } = await callRoute(fitRoute.POST, { body: { recall_filters, name: "fit-bad" } });
      expect(status).toBe(422);
      expectEnvelope(json);
    }
    const unknown = await callRoute(fitRoute.POST, { body: { recall_filters: { zzz: "x", level: "high" } } });
    expect(unknown.json.message).toMatch(/zzz/);
    expect(await profileCount()).toBe(before);
    // Good filters still reach the fit (here: too few labels, a 422 of its own).
    const good = await callRoute(fitRoute.POST, { body: { recall_filters: { store: "embedded", level: "high" } } });
    expect(good.json.error).toBe("not_enough_labels");
  });
});
