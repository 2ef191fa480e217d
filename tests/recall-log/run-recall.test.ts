import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { OpenAICompatibleEmbedder } from "@/lib/embeddings/server/openai-compatible";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { findRecall } from "@/lib/recall-log/server/repository";
import { RecallFailedError, runRecall } from "@/lib/recall-log/server/run-recall";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { readRemoteStoreConfigs, RemoteStore } from "@/lib/stores/server/remote";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_CONTEXT_ID } from "../support/fake-memory-service-fixtures";

describe("runRecall when the store fails", () => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  // The real OpenAI-compatible client, pointed at a loopback port nothing listens on.
  const unreachable = new OpenAICompatibleEmbedder({
    baseUrl: "http://127.0.0.1:9/v1",
    model: "m",
    dimensions: 512,
    timeoutMs: 2_000,
  });

  beforeAll(async () => {
    scratch = await scratchDatabase("pglite");
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.close();
    await scratch.drop();
  });

  it("logs a semantic recall whose embedder is down as failed, and raises 502 naming the log entry", async () => {
    const store = new EmbeddedStore(prisma, unreachable);
    const body = RecallBodySchema.parse({ query: "anything", search_mode: "semantic" });
    const error = await runRecall(body, store, prisma).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecallFailedError);
    const failed = error as RecallFailedError;
    expect(failed.status).toBe(502);
    expect(failed.code).toBe("embedding_unavailable");
    expect(failed.message).toMatch(/could not be reached/);

    const logged = await findRecall(prisma, failed.recallId);
    expect(logged).toMatchObject({
      status: "error",
      confidence: null,
      results: [],
      candidates: null,
      error: { code: "embedding_unavailable" },
    });
    expect(logged!.request.search_mode).toBe("semantic");
  });

  it("degrades a hybrid recall to keyword-only instead of failing, and says so", async () => {
    const store = new EmbeddedStore(prisma, unreachable);
    const view = await runRecall(RecallBodySchema.parse({ query: "anything" }), store, prisma);
    expect(view.status).toBe("ok");
    expect(view.degraded).toEqual({ reason: "embedding_unavailable" });
    expect(view.confidence!.basis).toBe("empty");
  });
});

describe("runRecall on a remote store", () => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  let service: Awaited<ReturnType<typeof startFakeMemoryService>>;
  const store = (key: string) =>
    new RemoteStore(
      readRemoteStoreConfigs({
        REMOTE_STORE_URL: service.url,
        REMOTE_STORE_API_KEY: key,
        REMOTE_STORE_CONTEXT_ID: FAKE_CONTEXT_ID,
      })[0]!,
    );

  beforeAll(async () => {
    service = await startFakeMemoryService({ apiKey: "kagura_right" });
    scratch = await scratchDatabase("pglite");
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
  });
  afterAll(async () => {
    await service.close();
    await prisma.$disconnect();
    await db.close();
    await scratch.drop();
  });

  it("logs what the service answered, confidence untouched and the pool unknown", async () => {
    const view = await runRecall(RecallBodySchema.parse({ store: "remote", query: "why 401s" }), store("kagura_right"), prisma);
    expect(view).toMatchObject({
      store: "remote",
      status: "ok",
      candidates: null,
      confidence: { level: "high", top_score: 0.919, prominence: 0.559, background_derived: true },
    });
    expect(await findRecall(prisma, view.id)).toEqual(view);
  });

  it("logs a rejected key as a failed recall and raises a 502 that says what to fix, without the key", async () => {
    const error = (await runRecall(RecallBodySchema.parse({ store: "remote", query: "x" }), store("kagura_wrong"), prisma).catch(
      (e: unknown) => e,
    )) as RecallFailedError;
    expect(error).toBeInstanceOf(RecallFailedError);
    expect([error.status, error.code]).toEqual([502, "remote_auth_failed"]);
    expect(error.message).toMatch(/rejected its API key.*set a valid key in REMOTE_STORE_API_KEY/);
    expect(error.message).not.toContain("kagura_wrong");
    expect(await findRecall(prisma, error.recallId)).toMatchObject({ status: "error", error: { code: "remote_auth_failed" } });
  });
});
