import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditStatus } from "@/lib/audit/types";
import { controlCorpus } from "./control-corpus";
import { callRoute } from "../support/call-route";

/**
 * `/api/stores/{name}/audit`: 202 to start, progress and the result on GET, cancel on
 * DELETE, the envelope for every refusal, the CSV, and a result marked stale once the store changes.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-audit-"));
process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
process.env.INDEX_SNAPSHOT = path.join(scratch, "index.snapshot");
process.env.DEMO_CORPUS = "off";
delete process.env.DATABASE_URL;

const storesRoute = await import("@/app/api/stores/route");
const storeRoute = await import("@/app/api/stores/[name]/route");
const memoriesRoute = await import("@/app/api/memories/route");
const auditRoute = await import("@/app/api/stores/[name]/audit/route");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbeddedStores } = await import("@/lib/stores/server/embedded");
const { auditFinished } = await import("@/lib/audit/server/jobs");

/** Only stopwords: no keyword query can match it. */
const WORDLESS = { id: "wordless", summary: "It is what it was, and that is that." };

beforeAll(async () => {
  await getEmbeddedStores();
}, 240_000);

afterAll(async () => {
  await (await getEmbeddedStores()).close();
  const db = await getDatabase();
  await db.prisma.$disconnect();
  await db.raw.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const audit = (name: string, init: Parameters<typeof callRoute>[1] = {}) =>
  callRoute(auditRoute[(init.method ?? (init.body === undefined ? "GET" : "POST")) as "GET" | "POST" | "DELETE"], {
    url: `/api/stores/${name}/audit`,
    ...init,
    params: { name },
  });

describe("the audit API", () => {
  it("refuses an unknown store (404), a bad body (422) and a cancel with nothing running (409)", async () => {
    const unknown = await audit("nope", { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: "unknown_store", message: expect.any(String) });
    expect((await audit("nope")).status).toBe(404);

    await callRoute(storesRoute.POST, { body: { name: "small" } });
    for (const body of [{ shadow_threshold: 2 }, { log_days: 0 }, { extra: true }, []]) {
      const bad = await audit("small", { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json).toMatchObject({ error: "validation_failed", details: expect.any(Object) });
    }
    const none = await audit("small", { method: "DELETE" });
    expect(none.status).toBe(409);
    expect(none.json.error).toBe("audit_not_running");
    const idle = await audit("small");
    expect(idle.json).toMatchObject({ state: "idle", result: null, result_finished_at: null, stale: false });
    expect((await audit("small", { url: "/api/stores/small/audit?format=csv" })).status).toBe(404);
  });

  it("runs in the background, answers the result with the evidence, exports it and marks it stale after a change", async () => {
    const memories = [...controlCorpus().slice(0, 30), WORDLESS];
    expect((await callRoute(memoriesRoute.POST, { body: { store: "small", memories } })).status).toBe(201);
    const started = await audit("small", { body: {} });
    expect(started.status).toBe(202);
    expect(started.json.state).toBe("running");
    const again = await audit("small", { body: {} });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("audit_running");
    await auditFinished("small");

    const { status, json } = await audit("small");
    expect(status).toBe(200);
    const done = json as AuditStatus;
    expect(done).toMatchObject({ state: "done", stale: false, progress: null });
    expect(done.result!.memories).toBe(31);
    expect(done.result!.settings.shadow_threshold).toBe(0.95);
    // The one memory no keyword reaches, with the reason "why isn't it here?" gives.
    expect(done.result!.findings.map((f) => f.memory_id)).toEqual([WORDLESS.id]);
    const wordless = done.result!.findings[0]!;
    expect(wordless.unreachable!.modes).toEqual(["keyword"]);
    expect(wordless.unreachable!.reasons[0]).toMatchObject({
      mode: "keyword",
      reason: "no_keyword_match",
      probe: { kind: "summary", query: WORDLESS.summary, k: 10 },
    });
    expect(done.result!.counts).toMatchObject({ unreachable: 1, shadowed: 0 });

    const csv = await auditRoute.GET(
      new (await import("next/server")).NextRequest("http://localhost/api/stores/small/audit?format=csv"),
      { params: Promise.resolve({ name: "small" }) },
    );
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^wordless,/);

    await callRoute(memoriesRoute.POST, {
      body: { store: "small", memories: [{ id: "later", summary: "Added after the audit." }] },
    });
    expect((await audit("small")).json.stale).toBe(true);
  });

  it("cancels a running audit and keeps the last result", async () => {
    const before = (await audit("small")).json as AuditStatus;
    expect((await audit("small", { body: {} })).status).toBe(202);
    const cancelled = await audit("small", { method: "DELETE" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.state).toBe("cancelled");
    expect(cancelled.json.result.finished_at).toBe(before.result!.finished_at);
  });

  it("answers a poll without the result (?result=0), saying when the kept one finished", async () => {
    const full = (await audit("small")).json as AuditStatus;
    expect(full.result).not.toBeNull();
    const light = await audit("small", { url: "/api/stores/small/audit?result=0" });
    expect(light.status).toBe(200);
    expect(light.json).toEqual({ ...full, result: null, result_finished_at: full.result!.finished_at });
    const bad = await audit("small", { url: "/api/stores/small/audit?result=no" });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ error: "validation_failed", details: expect.any(Object) });
  });
});

describe("a deleted store's audit", () => {
  const deleteStore = (name: string) =>
    callRoute(storeRoute.DELETE, { method: "DELETE", url: `/api/stores/${name}`, params: { name } });
  const createWithMemories = async (name: string) => {
    expect((await callRoute(storesRoute.POST, { body: { name } })).status).toBe(201);
    const memories = controlCorpus().slice(0, 6);
    expect((await callRoute(memoriesRoute.POST, { body: { store: name, memories } })).status).toBe(201);
  };

  it("goes with the store, also when the audit finishes after the delete", async () => {
    const prisma = (await getDatabase()).prisma;
    const kept = () => prisma.storeAudit.count({ where: { store: "doomed" } });

    await createWithMemories("doomed");
    expect((await audit("doomed", { body: {} })).status).toBe(202);
    await auditFinished("doomed");
    expect(await kept()).toBe(1);
    expect((await deleteStore("doomed")).status).toBe(200);
    expect(await kept()).toBe(0);

    // Deleted while its audit runs: the audit's result is not kept for a store that is gone.
    await createWithMemories("doomed");
    expect((await audit("doomed", { body: {} })).status).toBe(202);
    expect((await deleteStore("doomed")).status).toBe(200);
    await auditFinished("doomed");
    expect(await kept()).toBe(0);

    // A new store of that name starts with no audit.
    expect((await callRoute(storesRoute.POST, { body: { name: "doomed" } })).status).toBe(201);
    expect((await audit("doomed")).json).toMatchObject({ state: "idle", result: null, result_finished_at: null });
  });
});
