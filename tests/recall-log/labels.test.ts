import { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryFiltersSchema, HistoryQuerySchema } from "@/lib/recall-log/history";
import { EMPTY_LABELS, mergeLabels, type LabelsPatch, type PresentLabel, type RecallLabels } from "@/lib/recall-log/labels";
import { exportStream } from "@/lib/recall-log/server/export";
import { listRecalls } from "@/lib/recall-log/server/history-list";
import { saveRecallLabels } from "@/lib/recall-log/server/labels-store";
import { findRecall, insertRecalls, recallRow } from "@/lib/recall-log/server/repository";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Labels against real databases (PGlite and PostgreSQL): the one-UPDATE merge gives what
 * `mergeLabels` gives, ids outside the recall are refused with nothing saved, and History's label
 * filters select exactly the labeled rows (expected sets computed here from the fixture).
 */

const T0 = Date.UTC(2026, 10, 1);
const N = 30;

/** Recall i: results r0..r2, candidates r0..r2 plus an outside candidate c3 (none for every 5th). */
function row(id: string, i: number) {
  const results = [0, 1, 2].map((r) => ({ memory_id: `r${r}`, summary: `memory ${r}`, score: 0.9 - r / 10 }));
  const pool = i % 5 !== 0;
  const candidates = pool
    ? [...results, { memory_id: "c3", summary: "outside", score: 0.2 }].map((r, rank) => ({
        memory_id: r.memory_id,
        summary: r.summary,
        rank: rank + 1,
        raw_cosine: r.score,
        keyword_score: null,
        hybrid_score: r.score,
        in_pool: true,
        returned: rank < 3,
      }))
    : null;
  return recallRow({
    id,
    // Three share each timestamp, so the label filters page through ties too.
    createdAt: new Date(T0 + Math.floor(i / 3) * 60_000),
    source: i % 4 === 0 ? "ingest" : "console",
    request: { store: "embedded", query: `query ${i}`, k: 3, search_mode: "hybrid", use_rerank: false, selector: "off" },
    latencyMs: 5,
    outcome: { results, confidence: null, selector: null, candidates, timings: {} },
  });
}

describe.each(DATABASE_KINDS)("recall labels on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  const ids: string[] = Array.from({ length: N }, () => randomUUID());
  /** What each recall's labels should be, kept by applying the same patches with mergeLabels. */
  const expectedLabels = new Map<string, RecallLabels>();

  async function save(id: string, patch: LabelsPatch) {
    const outcome = await saveRecallLabels(prisma, id, patch);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) throw new Error("not saved");
    const before = expectedLabels.get(id) ?? EMPTY_LABELS;
    const want = mergeLabels(before, patch, outcome.labels.labeled_at ?? "");
    expect(outcome.labels).toEqual(want);
    expectedLabels.set(id, outcome.labels);
    return outcome.labels;
  }

  async function filtered(label: string, limit = 4): Promise<string[]> {
    const out: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listRecalls(
        prisma,
        HistoryQuerySchema.parse({ label, limit: String(limit), ...(cursor ? { cursor } : {}) }),
      );
      out.push(...page.items.map((item) => item.id));
      cursor = page.next_cursor;
    } while (cursor);
    return out;
  }

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    await insertRecalls(
      prisma,
      ids.map((id, i) => row(id, i)),
    );
  });

  afterAll(async () => {
    await database?.close();
  });

  it("logs a recall unlabeled", async () => {
    expect((await findRecall(prisma, ids[0]!))!.labels).toEqual(EMPTY_LABELS);
  });

  it("saves only what a patch sends, and reads it back with the recall", async () => {
    const id = ids[1]!;
    await save(id, { present: "yes", labeler: "Priya" });
    await save(id, { results: { r0: true, r2: false, c3: true } });
    await save(id, { results: { r2: null, r1: false } });
    const labels = await save(id, { present: "no" });
    expect(labels).toMatchObject({ present: "no", results: { r0: true, r1: false, c3: true }, labeler: "Priya" });
    expect(Date.parse(labels.labeled_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await findRecall(prisma, id))!.labels).toEqual(labels);
  });

  it("clears labeled_at once every label is cleared", async () => {
    const id = ids[2]!;
    await save(id, { present: "unsure", results: { r1: true } });
    const cleared = await save(id, { present: null, results: { r1: null } });
    expect(cleared).toEqual({ present: null, results: {}, labeler: null, labeled_at: null });
  });

  it("refuses ids outside the recall's results and candidates, saving nothing", async () => {
    const id = ids[3]!;
    const before = (await findRecall(prisma, id))!.labels;
    expect(await saveRecallLabels(prisma, id, { present: "yes", results: { r0: true, nope: true, "also-not": false } })).toEqual({
      ok: false,
      reason: "unknown_ids",
      unknown: ["nope", "also-not"],
    });
    expect((await findRecall(prisma, id))!.labels).toEqual(before);
    // Without a recorded pool only the results can be labeled.
    expect(await saveRecallLabels(prisma, ids[5]!, { results: { c3: true } })).toMatchObject({ ok: false, unknown: ["c3"] });
    expect((await saveRecallLabels(prisma, ids[5]!, { results: { r2: true } })).ok).toBe(true);
    expectedLabels.set(ids[5]!, (await findRecall(prisma, ids[5]!))!.labels);
  });

  it("says when the recall does not exist, with or without result labels", async () => {
    const missing = randomUUID();
    expect(await saveRecallLabels(prisma, missing, { present: "yes" })).toEqual({ ok: false, reason: "not_found" });
    expect(await saveRecallLabels(prisma, missing, { results: { r0: true } })).toEqual({ ok: false, reason: "not_found" });
  });

  it("filters History by label, exactly, paging through ties", async () => {
    const present: PresentLabel[] = ["yes", "no", "unsure"];
    for (let i = 6; i < N; i += 2) await save(ids[i]!, { present: present[i % 3]! });
    for (let i = 7; i < N; i += 6) await save(ids[i]!, { results: { r1: i % 4 === 3 } });
    const newestFirst = [...ids].reverse(); // createdAt grows with i; ties broken by id desc
    const order = (list: string[]) =>
      [...list].sort((a, b) => {
        const ia = ids.indexOf(a);
        const ib = ids.indexOf(b);
        return Math.floor(ib / 3) - Math.floor(ia / 3) || (a < b ? 1 : a > b ? -1 : 0);
      });
    const labeledNow = ids.filter((id) => (expectedLabels.get(id)?.labeled_at ?? null) !== null);
    const byPresent = (p: PresentLabel) => ids.filter((id) => expectedLabels.get(id)?.present === p);
    expect(labeledNow.length).toBeGreaterThan(10);
    expect(await filtered("labeled")).toEqual(order(labeledNow));
    expect(await filtered("unlabeled", 7)).toEqual(order(newestFirst.filter((id) => !labeledNow.includes(id))));
    expect(await filtered("present")).toEqual(order(byPresent("yes")));
    expect(await filtered("absent")).toEqual(order(byPresent("no")));
    expect(await filtered("unsure")).toEqual(order(byPresent("unsure")));
    expect(byPresent("yes").length + byPresent("no").length + byPresent("unsure").length).toBeLessThan(labeledNow.length);

    // Labels in the row, and combined with another filter.
    const page = await listRecalls(prisma, HistoryQuerySchema.parse({ label: "absent", source: "ingest", limit: "200" }));
    expect(page.items.map((item) => item.id)).toEqual(order(byPresent("no").filter((id) => ids.indexOf(id) % 4 === 0)));
    const item = (await listRecalls(prisma, HistoryQuerySchema.parse({ limit: "200" }))).items.find((x) => x.id === ids[1])!;
    expect(item).toMatchObject({
      label_present: "no",
      label_relevant: ["c3", "r0"],
      label_not_relevant: ["r1"],
      labeler: "Priya",
    });
    expect(item.labeled_at).toBe(expectedLabels.get(ids[1]!)!.labeled_at);
  });

  it("leaves the insights rollups as they were (the UPDATE's trigger subtracts and re-adds the row)", async () => {
    const [totals] = await prisma.$queryRaw<{ recalls: number; kept: number }[]>`
      SELECT coalesce(sum(recalls), 0)::int AS recalls, coalesce(sum(kept), 0)::int AS kept FROM recall_rollup`;
    expect(totals).toEqual({ recalls: N, kept: 0 });
  });

  it("exports the labels in CSV and JSON Lines", async () => {
    const filters = HistoryFiltersSchema.parse({ label: "labeled" });
    const jsonl = await new Response(await exportStream(prisma, filters, "jsonl")).text();
    const lines = jsonl
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const one = lines.find((l) => l.id === ids[1]);
    // A JSON Lines line is the whole recall (GET /api/recalls/{id}), its labels as stored.
    expect(one.labels).toMatchObject({ present: "no", results: { c3: true, r0: true, r1: false }, labeler: "Priya" });
    const csv = await new Response(await exportStream(prisma, filters, "csv")).text();
    const [header, ...rows] = csv.trimEnd().split("\n");
    expect(header).toMatch(/,label_present,label_relevant,label_not_relevant,labeler,labeled_at$/);
    expect(rows).toHaveLength(lines.length);
    const line = rows.find((r) => r.startsWith(`${ids[1]},`))!;
    expect(line).toContain(`,no,"[""c3"",""r0""]","[""r1""]",Priya,${expectedLabels.get(ids[1]!)!.labeled_at}`);
  });
});
