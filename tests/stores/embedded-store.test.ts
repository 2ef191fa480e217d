import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { computeConfidence } from "@/lib/recall/confidence";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { StoreError } from "@/lib/stores/types";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

const MEMORIES = [
  {
    id: "deploy-jwt",
    summary: "The Friday deploy failed because JWT tokens expired after 15 minutes, causing a storm of 401 errors.",
    type: "incident",
    tags: ["auth", "deploy"],
  },
  {
    id: "deploy-fix",
    summary: "Fixed the 401 storm by refreshing access tokens 60 seconds before they expire.",
    type: "bug-fix",
    tags: ["auth"],
  },
  {
    id: "editor",
    summary: "Sam prefers Neovim with a light colour scheme and two-space indentation.",
    type: "preference",
    tags: ["sam"],
  },
  { id: "standup", summary: "Daily standup is at 09:30 Berlin time in the Atlas room.", type: "schedule", tags: ["meetings"] },
  {
    id: "postgres",
    summary: "We chose PostgreSQL 15 over MySQL for the billing service because of JSONB support.",
    type: "decision",
    tags: ["billing", "database"],
  },
  { id: "coffee", summary: "Sam drinks oat milk flat whites and dislikes filter coffee.", type: "preference", tags: ["sam"] },
];

describe("EmbeddedStore (PGlite, USE-lite)", () => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  const embedder = new UseLiteEmbedder(1);
  let store: EmbeddedStore;

  beforeAll(async () => {
    scratch = await scratchDatabase("pglite");
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
  });

  beforeEach(async () => {
    await prisma.memory.deleteMany();
    store = new EmbeddedStore(prisma, embedder);
    const added = await store.add(MEMORIES);
    expect(added.created).toBe(MEMORIES.length);
  });

  afterAll(async () => {
    await embedder.close();
    await prisma.$disconnect();
    await db.close();
    await scratch.drop();
  });

  it("answers a hybrid recall with the page, the whole candidate list and confidence over the pool", async () => {
    const outcome = await store.recall({ query: "why did the deploy fail with 401s", k: 3, searchMode: "hybrid" });
    expect(outcome.results).toHaveLength(3);
    expect(
      outcome.results
        .map((r) => r.memory_id)
        .slice(0, 2)
        .sort(),
    ).toEqual(["deploy-fix", "deploy-jwt"]);

    const candidates = outcome.candidates!;
    expect(candidates.length).toBeGreaterThan(3); // fetched beyond the page: every memory has a cosine
    expect(candidates.map((c) => c.rank)).toEqual(candidates.map((_, i) => i + 1));
    expect(candidates.filter((c) => c.returned).map((c) => c.memory_id)).toEqual(outcome.results.map((r) => r.memory_id));
    for (const c of candidates) {
      expect(c.raw_cosine).toBeGreaterThan(-1);
      expect(c.raw_cosine).toBeLessThanOrEqual(1.000001);
      expect(c.hybrid_score).not.toBeNull(); // negative for a negative cosine, as in the reference
    }
    // The top semantic hit is max-normalized to 1 × 0.6; a keyword match adds up to 0.4 more.
    expect(Math.max(...candidates.map((c) => c.hybrid_score!))).toBeGreaterThanOrEqual(0.6);
    expect(outcome.results[0]!.score).toBe(candidates[0]!.hybrid_score);

    const pool = candidates.filter((c) => c.in_pool);
    expect(outcome.confidence).toEqual(
      computeConfidence({ hybridScores: pool.map((c) => c.hybrid_score!), semanticRaw: pool.map((c) => c.raw_cosine!) }),
    );
    expect(outcome.confidence.result_count).toBe(3);
    expect(Object.keys(outcome.timings).sort()).toEqual([
      "confidence_ms",
      "embed_ms",
      "keyword_ms",
      "merge_ms",
      "notices_ms",
      "semantic_ms",
    ]);
  });

  it("scores semantic mode with raw cosines and keyword mode with raw BM25 (z-score confidence)", async () => {
    const semantic = await store.recall({ query: "what coffee does Sam like", k: 2, searchMode: "semantic" });
    expect(semantic.results[0]!.memory_id).toBe("coffee");
    expect(semantic.results[0]!.score).toBe(semantic.candidates![0]!.raw_cosine);
    expect(semantic.candidates!.every((c) => c.keyword_score === null && c.hybrid_score === null)).toBe(true);
    expect(semantic.timings.keyword_ms).toBeUndefined();

    const keyword = await store.recall({ query: "PostgreSQL billing", k: 5, searchMode: "keyword" });
    expect(keyword.results[0]!.memory_id).toBe("postgres");
    expect(keyword.candidates!.every((c) => c.raw_cosine === null)).toBe(true);
    expect(keyword.results[0]!.score).toBeGreaterThan(1); // raw BM25 is not normalized
    expect(keyword.confidence.basis).toBe("single");
    expect(keyword.timings.embed_ms).toBeUndefined();
  });

  it("filters by type and tags before ranking", async () => {
    const byType = await store.recall({ query: "Sam", k: 5, searchMode: "hybrid", filters: { types: ["preference"] } });
    expect(byType.candidates!.map((c) => c.memory_id).sort()).toEqual(["coffee", "editor"]);
    const allTags = await store.recall({
      query: "tokens",
      k: 5,
      searchMode: "semantic",
      filters: { tags: ["auth", "deploy"], tagsMatch: "all" },
    });
    expect(allTags.candidates!.map((c) => c.memory_id)).toEqual(["deploy-jwt"]);
  });

  it("writes every field of an imported memory as given (quotes, backslashes, unicode, empty and repeated tags)", async () => {
    const tricky = {
      id: "tricky:id_1.a",
      summary: 'She said "ship it" \\ then left — 東京, emoji 🚀, tab\tand newline\nkept.',
      content: "Line one\nline two with 'quotes' and {\"json\": [1, 2]}",
      type: "incident",
      tags: ["a,b", "ünï", "a,b", "{x}"],
      importance: 0.123,
      created_at: "2025-03-04T05:06:07.089Z",
    };
    const plain = { id: "plain-no-tags", summary: "A memory with no tags or content at all." };
    const { created, results } = await store.add([tricky, plain]);
    expect(results.filter((r) => r.status !== "created")).toEqual([]);
    expect(created).toBe(2);
    const rows = await prisma.memory.findMany({ where: { id: { in: [tricky.id, plain.id] } }, orderBy: { id: "asc" } });
    expect(rows.map(({ embedding, ...rest }) => ({ ...rest, hasEmbedding: (embedding ?? "").length > 0 }))).toEqual([
      {
        id: plain.id,
        summary: plain.summary,
        content: null,
        type: "note",
        tags: [],
        importance: 0.5,
        createdAt: expect.any(Date),
        updatedAt: null,
        embeddingModel: embedder.id,
        hasEmbedding: true,
        store: "embedded",
      },
      {
        id: tricky.id,
        summary: tricky.summary,
        content: tricky.content,
        type: "incident",
        tags: ["a,b", "ünï", "{x}"],
        importance: expect.closeTo(0.123, 6),
        createdAt: new Date(tricky.created_at),
        updatedAt: null,
        embeddingModel: embedder.id,
        hasEmbedding: true,
        store: "embedded",
      },
    ]);
  }, 120_000);

  it("rejects bad items one by one and keeps every valid one", async () => {
    const { results, created, rejected } = await store.add([
      { summary: "   " },
      { summary: "x".repeat(1_000_000) },
      { summary: "A fine memory about the release train.", colour: "blue" },
      { id: "dup", summary: "First copy of a duplicated id." },
      { id: "dup", summary: "Second copy of a duplicated id." },
      { id: "editor", summary: "Clashes with a stored memory." },
      { summary: "Importance out of range.", importance: 3 },
      "not an object",
      { summary: "The release train leaves every second Tuesday.", tags: ["release"] },
    ]);
    expect(created).toBe(2);
    expect(rejected).toBe(7);
    expect(results.map((r) => r.status)).toEqual([
      "rejected",
      "rejected",
      "rejected",
      "created",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
      "created",
    ]);
    const messages = results.map((r) =>
      r.status === "rejected" ? r.errors.map((e) => `${e.path.join(".")}: ${e.message}`).join("; ") : "",
    );
    expect(messages[0]).toMatch(/^summary: summary is empty/);
    expect(messages[1]).toMatch(/^summary: summary is longer than 2000 characters/);
    expect(messages[2]).toMatch(/unknown field: colour/);
    expect(messages[4]).toBe("id: duplicate of item 3 in this batch");
    expect(messages[5]).toBe("id: a memory with this id already exists");
    expect(messages[6]).toMatch(/^importance:/);
    expect(await prisma.memory.count()).toBe(MEMORIES.length + 2);
    expect((await store.memories.get("editor"))!.summary).toMatch(/Neovim/); // the clash did not overwrite
  });

  it("deletes from the database and the index at once", async () => {
    expect(await store.delete("coffee")).toBe(true);
    expect(await store.delete("coffee")).toBe(false);
    const outcome = await store.recall({ query: "coffee", k: 6, searchMode: "hybrid" });
    expect(outcome.candidates!.map((c) => c.memory_id)).not.toContain("coffee");
  });

  it("rebuilds the same index from the database on load", async () => {
    const request = { query: "which database did we pick for billing", k: 4, searchMode: "hybrid" as const };
    const before = await store.recall(request);
    const reloaded = new EmbeddedStore(prisma, embedder);
    expect((await reloaded.load()).memories).toBe(MEMORIES.length);
    const after = await reloaded.recall(request);
    expect(after.candidates).toEqual(before.candidates);
    expect(after.confidence).toEqual(before.confidence);
  });

  it("refuses semantic search over vectors of another model until re-embedded", async () => {
    await prisma.memory.update({
      where: { store_id: { store: "embedded", id: "standup" } },
      data: { embeddingModel: "text-embedding-3-small" },
    });
    const reloaded = new EmbeddedStore(prisma, embedder);
    await reloaded.load();
    const error = await reloaded.recall({ query: "standup", k: 3, searchMode: "hybrid" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).status).toBe(409);
    expect((error as StoreError).message).toMatch(/1 memories were embedded with text-embedding-3-small.*npm run reembed/);
    // Keyword search does not need vectors.
    expect((await reloaded.recall({ query: "standup", k: 3, searchMode: "keyword" })).results[0]!.memory_id).toBe("standup");

    expect(await reloaded.reembed()).toEqual({ reembedded: 1 });
    expect((await reloaded.stats()).stale_vectors).toBe(0);
    const outcome = await reloaded.recall({ query: "when is the daily standup", k: 3, searchMode: "hybrid" });
    expect(outcome.results[0]!.memory_id).toBe("standup");
  });

  it("lists newest first with a cursor that walks every memory exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.memories.list({ limit: 4, cursor });
      expect(page.total).toBe(MEMORIES.length);
      seen.push(...page.items.map((m) => m.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(MEMORIES.map((m) => m.id).sort());
    const search = await store.memories.list({ q: "SAM", limit: 10 });
    expect(search.items.map((m) => m.id).sort()).toEqual(["coffee", "editor"]);
    await expect(store.memories.list({ limit: 5, cursor: "garbage" })).rejects.toThrow(/cursor/);
  });
});
