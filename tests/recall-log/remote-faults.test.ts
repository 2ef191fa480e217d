import { PrismaClient } from "@prisma/client";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { OpenAICompatibleEmbedder } from "@/lib/embeddings/server/openai-compatible";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { findRecall } from "@/lib/recall-log/server/repository";
import { RecallFailedError, runRecall } from "@/lib/recall-log/server/run-recall";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { readRemoteStoreConfigs, RemoteStore } from "@/lib/stores/server/remote";
import { StoreError } from "@/lib/stores/types";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";

/**
 * Remote-store faults through the real client over loopback HTTP: an answer far
 * past 10 MB is cut off (502, logged as failed) without being buffered; a caller that goes away
 * is logged as cancelled (499) whatever error the framework aborts with; a 422's `loc` never
 * echoes the key.
 */
const API_KEY = "sk-live-SECRET-key-0123456789abcdef";

type Behaviour = "huge" | "slow" | "loc";

describe("remote faults are logged, bounded and clean", () => {
  let scratch: ScratchDatabase;
  let db: OpenDatabase;
  let prisma: PrismaClient;
  let server: Server;
  let behaviour: Behaviour = "huge";
  let sentBytes = 0;
  let store: RemoteStore;

  beforeAll(async () => {
    scratch = await scratchDatabase("pglite");
    db = await openDatabase(scratch.config);
    await migrate(db);
    prisma = new PrismaClient({ adapter: db.adapter });
    server = createServer((req, res) => {
      req.resume();
      if (behaviour === "loc") {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: "VAL-001",
            message: "invalid",
            details: {
              errors: [
                { loc: ["header", `Bearer ${API_KEY}`], msg: "bad header", type: "value_error" },
                { loc: ["header", "Bearer sk-other-echo-99"], msg: "bad", type: "x" },
              ],
            },
          }),
        );
        return;
      }
      if (behaviour === "slow") {
        setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"results":[]}'), 1_500);
        return;
      }
      // 200 MB, chunked (no content-length), written as fast as the client reads.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.from(
        `{"results":[${'{"memory_id":"m","summary":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},'.repeat(20_000)}`,
      );
      const write = () => {
        while (sentBytes < 200_000_000) {
          sentBytes += chunk.byteLength;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end("]}");
      };
      res.on("error", () => undefined);
      write();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const [config] = readRemoteStoreConfigs({
      REMOTE_STORE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      REMOTE_STORE_API_KEY: API_KEY,
      REMOTE_STORE_CONTEXT_ID: "00000000-0000-4000-8000-000000000001",
      REMOTE_STORE_NAME: "prod",
      REMOTE_STORE_TIMEOUT_MS: "20000",
    });
    store = new RemoteStore(config!);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await prisma.$disconnect();
    await db.close();
    await scratch.drop();
  });

  it("cuts a 200 MB answer at 10 MB: 502 with a clear message, logged as a failed recall", async () => {
    behaviour = "huge";
    sentBytes = 0;
    const before = await prisma.recall.count();
    const error = await runRecall(RecallBodySchema.parse({ store: "prod", query: "anything" }), store, prisma).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RecallFailedError);
    const failed = error as RecallFailedError;
    expect(failed).toMatchObject({ status: 502, code: "remote_answer_too_large" });
    expect(failed.message).toMatch(/larger than 10 MB/);
    expect(await prisma.recall.count()).toBe(before + 1);
    expect(await findRecall(prisma, failed.recallId)).toMatchObject({
      status: "error",
      error: { code: "remote_answer_too_large" },
    });
    // The client stopped reading: far less than the 200 MB went over the wire.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sentBytes).toBeLessThan(60_000_000);
  });

  it.each([
    ["Next's ResponseAborted", () => Object.assign(new Error("The response was aborted"), { name: "ResponseAborted" })],
    ["an AbortError", () => new DOMException("aborted", "AbortError")],
  ])("a caller gone mid remote recall (%s) is logged as cancelled, 499", async (_name, reason) => {
    behaviour = "slow";
    const before = await prisma.recall.count();
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason()), 200);
    const error = await runRecall(RecallBodySchema.parse({ store: "prod", query: "anything" }), store, prisma, {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecallFailedError);
    expect(error).toMatchObject({ status: 499, code: "client_closed_request" });
    expect(await prisma.recall.count()).toBe(before + 1);
    expect(await findRecall(prisma, (error as RecallFailedError).recallId)).toMatchObject({
      status: "error",
      error: { code: "client_closed_request" },
    });
  });

  it("a cancelled embedded recall is logged as cancelled too", async () => {
    // The embedded store does not watch the signal; the recall is judged after it answers.
    const embedded = new EmbeddedStore(
      prisma,
      new OpenAICompatibleEmbedder({ baseUrl: "http://127.0.0.1:9/v1", model: "m", dimensions: 512, timeoutMs: 2_000 }),
    );
    const controller = new AbortController();
    controller.abort(Object.assign(new Error("aborted"), { name: "ResponseAborted" }));
    const error = await runRecall(RecallBodySchema.parse({ query: "anything", search_mode: "keyword" }), embedded, prisma, {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 499, code: "client_closed_request" });
  });

  it("a 422 whose loc names the Authorization value does not echo the key", async () => {
    behaviour = "loc";
    const error = await store.recall({ query: "anything", k: 5, searchMode: "hybrid" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    const serialized = JSON.stringify({ message: (error as StoreError).message, details: (error as StoreError).details });
    expect(serialized).not.toContain(API_KEY);
    expect(serialized).not.toContain("sk-other-echo-99");
    expect((error as StoreError).details.errors).toEqual([
      { loc: "header.[redacted]", msg: "bad header", type: "value_error" },
      { loc: "header.[redacted]", msg: "bad", type: "x" },
    ]);
  });
});
