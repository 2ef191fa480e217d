import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * Labeled sets and evaluation runs through the HTTP handlers, in-process, on a throw-away PGlite
 * database with the demo corpus and the real USE-lite embedder.
 */
const app = appUnderTest("eval", { demoCorpus: true });

const datasetsRoute = await import("@/app/api/datasets/route");
const datasetRoute = await import("@/app/api/datasets/[id]/route");
const runsRoute = await import("@/app/api/eval-runs/route");
const runRoute = await import("@/app/api/eval-runs/[id]/route");
const cancelRoute = await import("@/app/api/eval-runs/[id]/cancel/route");
const exportRoute = await import("@/app/api/eval-runs/[id]/export/route");
const recallRoute = await import("@/app/api/recalls/[id]/route");
const insightsRoute = await import("@/app/api/insights/route");
const consoleRecallRoute = await import("@/app/api/recall/route");
const { getDatabase } = await import("@/lib/db/server");
const { getEmbeddedStore } = await import("@/lib/stores/server/embedded/index");
const { ensureDemoDataset } = await import("@/lib/eval/server/datasets");
const { evalQueueIdle, markInterruptedRuns } = await import("@/lib/eval/server/runs");
const { evalMetrics } = await import("@/lib/eval/metrics");

let demoId: string;
let doneRunId: string;

beforeAll(async () => {
  const store = await getEmbeddedStore();
  expect(store.size).toBe(345);
  const demo = await ensureDemoDataset((await getDatabase()).prisma, "demo");
  demoId = demo!.id;
  // Once only: a second start finds the key and leaves the sets alone.
  expect(await ensureDemoDataset((await getDatabase()).prisma, "demo")).toBeNull();
}, 180_000);

afterAll(async () => {
  await evalQueueIdle();
  await app.close();
});

const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n");

async function createSet(name: string, items: unknown[]): Promise<string> {
  const { status, json } = await callRoute(datasetsRoute.POST, { body: { name, items } });
  expect(status, JSON.stringify(json)).toBe(201);
  return json.id;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped library boundary
async function waitFor(id: string, until: (run: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await callRoute(runRoute.GET, { params: { id } });
    if (until(json) || Date.now() > deadline) return json;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("POST /api/datasets", () => {
  it("stores the demo set on first start, with its kinds", async () => {
    const { json } = await callRoute(datasetRoute.GET, { params: { id: demoId } });
    expect(json).toMatchObject({ origin: "demo", count: 106, absent: 26, kinds: { on_topic: 80, off_topic: 15, near_miss: 11 } });
    expect(json.items[0]).toEqual({
      position: 0,
      id: "q-001",
      query: expect.any(String),
      relevant: ["mem-0080", "mem-0227"],
      kind: "on_topic",
      tags: [],
    });
  });

  it("refuses a JSON Lines upload with bad lines, naming each line, and stores nothing", async () => {
    const before = (await callRoute(datasetsRoute.GET)).json.datasets.length;
    const body = jsonl([
      { query: "who is on call", relevant: ["mem-0001"] },
      "{not json",
      { query: "fine", relevant: [] },
      { query: "   ", relevant: [] },
      "",
      { query: "x", relevant: "mem-1" },
      { query: "y", relevant: [], colour: "red" },
    ]);
    const { status, json } = await callRoute(datasetsRoute.POST, {
      url: "/api/datasets?name=bad",
      rawBody: body,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(status).toBe(422);
    expect(json.error).toBe("invalid_items");
    expect(json.details.errors.map((e: { line: number }) => e.line)).toEqual([2, 4, 6, 7]);
    expect(json.details.errors[0].errors[0].message).toMatch(/^not JSON/);
    expect(json.details.errors[1].errors[0]).toEqual({ path: ["query"], message: "query is empty" });
    expect(json.details.errors[3].errors[0].message).toMatch(/unknown field: colour/);
    expect(json.message).toMatch(/^Nothing was stored: 4 items are invalid \(line 2: not JSON/);
    expect((await callRoute(datasetsRoute.GET)).json.datasets.length).toBe(before);
  });

  it("accepts JSON Lines with ?name= and JSON {name, items}; duplicate item ids are refused", async () => {
    const lines = await callRoute(datasetsRoute.POST, {
      url: "/api/datasets?name=small",
      rawBody: jsonl([
        { id: "a", query: "who is Maya's manager", relevant: ["mem-0003"], kind: "people", tags: ["x"] },
        { query: "moons of Jupiter", relevant: [] },
      ]),
    });
    expect(lines.status).toBe(201);
    expect(lines.json).toEqual({ id: expect.any(String), count: 2 });
    const dup = await callRoute(datasetsRoute.POST, {
      body: {
        name: "dup",
        items: [
          { id: "a", query: "q", relevant: [] },
          { id: "a", query: "r", relevant: [] },
        ],
      },
    });
    expect(dup.status).toBe(422);
    expect(dup.json.details.errors).toEqual([
      { index: 1, errors: [{ path: ["id"], message: 'id "a" is used twice (first at index 0)' }] },
    ]);
    const noName = await callRoute(datasetsRoute.POST, { body: { items: [{ query: "q", relevant: [] }] } });
    expect(noName.status).toBe(422);
  });

  it("refuses a name another set has (409, JSON or JSON Lines), and keeps the first set whole", async () => {
    const first = await createSet("on-call checks", [{ query: "who is on call", relevant: ["mem-0001"] }]);
    const before = (await callRoute(datasetsRoute.GET)).json.datasets.length;
    const again = await callRoute(datasetsRoute.POST, {
      body: { name: "  on-call checks ", items: [{ query: "another", relevant: [] }] },
    });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      error: "duplicate_name",
      message: 'A set named "on-call checks" already exists; choose another name.',
      details: { name: "on-call checks", id: first },
    });
    const lines = await callRoute(datasetsRoute.POST, {
      url: `/api/datasets?name=${encodeURIComponent("on-call checks")}`,
      rawBody: jsonl([{ query: "third", relevant: [] }]),
    });
    expect(lines.status).toBe(409);
    expect((await callRoute(datasetsRoute.GET)).json.datasets.length).toBe(before);
    const { json: kept } = await callRoute(datasetRoute.GET, { params: { id: first } });
    expect(kept.items.map((i: { query: string }) => i.query)).toEqual(["who is on call"]);
    // Another name is fine.
    await createSet("on-call checks 2", [{ query: "who is on call", relevant: [] }]);
  });
});

describe("evaluation runs", () => {
  it("runs the demo set in the background; its metrics equal a recomputation from the logged recalls", async () => {
    const started = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, k: 5 } });
    expect(started.status).toBe(202);
    expect(started.json).toEqual({ id: expect.any(String), status: "queued" });
    await evalQueueIdle();
    const { json: run } = await callRoute(runRoute.GET, { params: { id: started.json.id } });
    expect(run).toMatchObject({
      status: "done",
      progress: { done: 106, total: 106 },
      // No profile named: the store's own (the embedded store ships with use-lite), as the console judges.
      settings: { store: "demo", k: 5, search_mode: "hybrid", selector: "off", profile: "use-lite" },
      missing_ids: { checked: true, count: 0, ids: [] },
    });
    expect(run.items).toHaveLength(106);
    expect(JSON.stringify(run)).not.toMatch(/NaN/);
    expect(Object.keys(run.metrics.by_kind)).toEqual(["near_miss", "off_topic", "on_topic"]);
    expect(run.thresholds).toEqual(expect.objectContaining({ name: "use-lite" }));
    expect(run.items.some((i: { level: string; reference_level: string }) => i.level !== i.reference_level)).toBe(true);

    const { json: set } = await callRoute(datasetRoute.GET, { params: { id: demoId } });
    const outcomes = [];
    for (const item of run.items) {
      const { json: recall } = await callRoute(recallRoute.GET, { params: { id: item.recall_id } });
      expect(recall.source).toBe("eval");
      expect(recall.eval_run).toEqual({ id: run.id, item: item.position });
      expect(recall.request.query).toBe(set.items[item.position].query);
      outcomes.push({
        kind: set.items[item.position].kind,
        relevant: set.items[item.position].relevant,
        ranked: recall.results.map((r: { memory_id: string }) => r.memory_id),
        level: recall.profile_confidence?.level ?? recall.confidence.level,
        probability: recall.profile_confidence?.probability ?? null,
        top_score: recall.confidence.top_score,
        prominence: recall.confidence.prominence,
        relative_margin: recall.confidence.relative_margin,
      });
    }
    expect(run.metrics).toEqual(evalMetrics(outcomes, 5));
    expect(run.metrics.count).toBe(106);
    // The headline states present vs off-topic apart from near-misses, with the probability's calibration.
    expect(run.metrics.verdict.present_vs_off_topic).toMatchObject({ present: 80, off_topic: 15, auc_of: "probability" });
    expect(run.metrics.verdict.near_miss.count).toBe(11);
    expect(run.metrics.verdict.calibration.count).toBe(95);
    expect(run.metrics.present).toBe(80);
    expect(run.metrics.hit_at_1).toBeGreaterThan(0.3);

    const csv = await exportRoute.GET(new (await import("next/server")).NextRequest("http://localhost/x?format=csv"), {
      params: Promise.resolve({ id: run.id }),
    });
    const text = await csv.text();
    expect(text.split("\n")[0]).toBe(
      "position,item_id,query,kind,relevant,first_relevant_rank,level,reference_level,top_score,prominence,relative_margin,status,recall_id,returned_ids",
    );
    expect(text.trim().split("\n")).toHaveLength(107);
  }, 180_000);

  it("reports relevant ids the store does not hold when the run starts", async () => {
    const id = await createSet("missing", [{ query: "who is Daniel", relevant: ["mem-0023", "mem-9999", "gone"] }]);
    // A named profile judges the triage: the reference one leaves the reference levels.
    const { json } = await callRoute(runsRoute.POST, { body: { dataset_id: id, k: 3, profile: "default" } });
    await evalQueueIdle();
    const run = (await callRoute(runRoute.GET, { params: { id: json.id } })).json;
    expect(run.settings.profile).toBe("default");
    expect(run.items[0].level).toBe(run.items[0].reference_level);
    expect(run.thresholds.high_prominence).toBe(0.4);
    expect(run.missing_ids).toEqual({ checked: true, count: 2, ids: ["mem-9999", "gone"] });
    doneRunId = run.id;
    expect(run.metrics.recall_at_k).toBeLessThanOrEqual(1 / 3);
  });

  it("stops a cancelled run before its next query", async () => {
    const id = await createSet(
      "long",
      Array.from({ length: 400 }, (_, i) => ({ query: `deploy freeze number ${i}`, relevant: [] })),
    );
    const { json } = await callRoute(runsRoute.POST, { body: { dataset_id: id } });
    await waitFor(json.id, (r) => r.progress.done >= 2);
    const cancelled = await callRoute(cancelRoute.POST, { params: { id: json.id } });
    expect(cancelled.json).toEqual({ id: json.id, status: "cancelled" });
    await evalQueueIdle();
    const run = (await callRoute(runRoute.GET, { params: { id: json.id } })).json;
    expect(run.status).toBe("cancelled");
    expect(run.progress.done).toBeLessThan(400);
    // At most the query in flight at the cancel was still logged.
    expect(run.items.length).toBeGreaterThanOrEqual(run.progress.done);
    expect(run.items.length).toBeLessThanOrEqual(run.progress.done + 1);
    // Cancelling again is harmless; a run that ended otherwise cannot be cancelled.
    expect((await callRoute(cancelRoute.POST, { params: { id: json.id } })).json.status).toBe("cancelled");
    const finished = await callRoute(cancelRoute.POST, { params: { id: doneRunId } });
    expect(finished.status).toBe(409);
    expect(finished.json).toMatchObject({ error: "run_finished", details: { status: "done" } });
  }, 120_000);

  it("marks a run unfinished at a (re)start interrupted, and the old job stops", async () => {
    const id = await createSet(
      "long2",
      Array.from({ length: 400 }, (_, i) => ({ query: `kafka lag ${i}`, relevant: [] })),
    );
    const { json } = await callRoute(runsRoute.POST, { body: { dataset_id: id } });
    await waitFor(json.id, (r) => r.status === "running" && r.progress.done >= 1);
    // What the next server start does first (lib/startup.ts).
    expect(await markInterruptedRuns((await getDatabase()).prisma)).toBe(1);
    await evalQueueIdle();
    const run = (await callRoute(runRoute.GET, { params: { id: json.id } })).json;
    expect(run.status).toBe("interrupted");
    expect(run.finished_at).not.toBeNull();
    expect(run.progress.done).toBeLessThan(400);
    expect(run.items.length).toBeLessThanOrEqual(run.progress.done + 1);
  }, 120_000);

  it("leaves the run's recalls out of Insights' default figures: the totals are those from before the run", async () => {
    // One console recall, so the default figures are not empty.
    expect(
      (await callRoute(consoleRecallRoute.POST, { body: { query: "who is on call this week", selector: "gap" } })).status,
    ).toBe(200);
    const window = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
    const insights = async (extra = "") => (await callRoute(insightsRoute.GET, { url: `/api/insights?${window}${extra}` })).json;
    const before = await insights();
    const evalBefore = await insights("&source=eval");
    expect(before.totals.recalls).toBeGreaterThanOrEqual(1);

    const id = await createSet("insights check", [
      { query: "who is on call this week", relevant: [] },
      { query: "kafka consumer lag alert", relevant: [] },
      { query: "moons of Jupiter", relevant: [] },
    ]);
    const started = await callRoute(runsRoute.POST, { body: { dataset_id: id, selector: "gap", k: 10 } });
    expect(started.status).toBe(202);
    await evalQueueIdle();
    expect((await callRoute(runRoute.GET, { params: { id: started.json.id } })).json.status).toBe("done");

    const after = await insights();
    expect(after.totals).toEqual(before.totals);
    expect(after.filters.sources).toEqual(["console", "ingest", "proxy", "otel"]);
    // Asked for, they are there.
    expect((await insights("&source=eval")).totals.recalls).toBe(evalBefore.totals.recalls + 3);
    expect((await insights("&source=all")).totals.recalls).toBe(before.totals.recalls + evalBefore.totals.recalls + 3);
  });

  it("refuses the LLM selector when no LLM is configured (it would measure selector off), and stores no run", async () => {
    expect(process.env.SELECTOR_LLM_BASE_URL).toBeUndefined();
    const runsBefore = (await callRoute(runsRoute.GET)).json.runs.length;
    const llm = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, selector: "llm" } });
    expect(llm.status).toBe(422);
    expect(llm.json).toMatchObject({ error: "selector_unavailable", details: { selector: "llm" } });
    expect(llm.json.message).toContain("SELECTOR_LLM_BASE_URL");
    expect((await callRoute(runsRoute.GET)).json.runs.length).toBe(runsBefore);
    // The score gap needs nothing set up: it runs.
    const id = await createSet("gap only", [{ query: "who is on call this week", relevant: [] }]);
    const gap = await callRoute(runsRoute.POST, { body: { dataset_id: id, selector: "gap", k: 10 } });
    expect(gap.status).toBe(202);
    await evalQueueIdle();
    expect((await callRoute(runRoute.GET, { params: { id: gap.json.id } })).json.status).toBe("done");
  });

  it("refuses an unknown set, an unknown store and bad settings with the envelope", async () => {
    expect((await callRoute(runsRoute.POST, { body: { dataset_id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    const store = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, store: "nope" } });
    expect(store.status).toBe(404);
    expect(store.json.error).toBe("unknown_store");
    expect((await callRoute(runsRoute.POST, { body: { dataset_id: demoId, k: 0 } })).status).toBe(422);
    const profile = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, profile: "no-such-profile" } });
    expect(profile.status).toBe(422);
    expect(profile.json.error).toBe("unknown_profile");
    // No reranker is configured here: a reranked run is refused before it is stored.
    const runsBefore = (await callRoute(runsRoute.GET)).json.runs.length;
    const rerank = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, use_rerank: true } });
    expect(rerank.status).toBe(422);
    expect(rerank.json.error).toBe("rerank_unavailable");
    expect(rerank.json.message).toContain("RERANK_BASE_URL");
    expect((await callRoute(runsRoute.GET)).json.runs.length).toBe(runsBefore);
    expect((await callRoute(runRoute.GET, { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    // k = 0 is refused by the console's own schema, in the envelope, naming k.
    const zero = await callRoute(runsRoute.POST, { body: { dataset_id: demoId, k: 0 } });
    expect(zero.json).toMatchObject({
      error: "validation_failed",
      details: { issues: [expect.objectContaining({ path: ["k"] })] },
    });
    expect((await callRoute(runsRoute.GET)).json.runs.length).toBe(runsBefore);
    const list = (await callRoute(runsRoute.GET)).json.runs;
    expect(list.length).toBeGreaterThanOrEqual(4);
  });
});
