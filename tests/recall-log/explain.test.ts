import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmbedder } from "@/lib/embeddings/server";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { findRecall } from "@/lib/recall-log/server/repository";
import { runRecall } from "@/lib/recall-log/server/run-recall";
import { explainMemory } from "@/lib/recall-log/server/why";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { readDemoCorpus } from "@/lib/stores/server/embedded/demo-corpus";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * Notices and "why isn't X here?" on the demo corpus with the real embedder, on PGlite and
 * PostgreSQL: every buried-hit notice is checked against the logged pool (not against a
 * hard-coded id, so the test holds whatever stemming does to the ranking), the BM25 computed for
 * display equals the arm's own scoring, and the why answer agrees with the candidate list.
 */
describe.each(DATABASE_KINDS)("notices and why on %s", (kind) => {
  let database: MigratedDatabase | undefined;
  let prisma: PrismaClient;
  let store: EmbeddedStore;
  const recall = async (body: Record<string, unknown>) => runRecall(RecallBodySchema.parse(body), store, prisma);
  const why = async (recallId: string, memoryId: string) => {
    const outcome = await explainMemory(prisma, recallId, memoryId, { embedded: async () => store });
    if (outcome.kind !== "answer") throw new Error(`no answer: ${outcome.kind}`);
    return outcome.answer;
  };

  beforeAll(async () => {
    database = await migratedDatabase(kind);
    prisma = database.prisma;
    store = new EmbeddedStore(prisma, getEmbedder());
    const { created } = await store.add(readDemoCorpus());
    expect(created).toBeGreaterThan(200);
  }, 240_000);
  afterAll(async () => {
    await database?.close();
  });

  /** Every buried-hit notice must be true of the logged list; returns them. */
  function checkBuried(view: LoggedRecall) {
    const candidates = view.candidates!;
    const poolTop = Math.max(...candidates.filter((c) => c.in_pool && c.raw_cosine !== null).map((c) => c.raw_cosine!));
    const buried = view.notices.filter((n) => n.kind === "buried_best_hit");
    for (const notice of buried) {
      const c = candidates.find((x) => x.memory_id === notice.memory_id)!;
      expect(c.in_pool).toBe(false);
      expect(c.raw_cosine).toBe(notice.raw_cosine);
      expect(c.raw_cosine!).toBeGreaterThan(poolTop);
      expect(notice.pool_top_cosine).toBe(poolTop);
      expect(notice.ranks!.merged).toBe(c.rank);
      expect(notice.message).toContain(c.memory_id);
      if (c.keyword_score === null && notice.computed_keyword_score != null) {
        // The value shown is the arm's own BM25 of that memory, not used by the merge.
        expect(notice.keyword_score).toBeNull();
        expect(notice.message).toContain("not used by the merge");
      }
    }
    // And nothing buried was left unsaid (up to the cap).
    const expected = candidates.filter((c) => !c.in_pool && c.raw_cosine !== null && c.raw_cosine > poolTop).length;
    expect(buried.length).toBe(Math.min(expected, 5));
    return buried;
  }

  it("q-006 at k=20: the buried-hit notices are true of the pool, kept in the log, and the why answer agrees", async () => {
    const view = await recall({ query: "what is Maya allergic to?", k: 20 });
    const buried = checkBuried(view);
    const stored = await findRecall(prisma, view.id);
    expect(stored!.notices).toEqual(view.notices);
    // Whatever the arms did, ask why about the best raw cosine of all candidates.
    const best = [...view.candidates!].filter((c) => c.raw_cosine !== null).sort((a, b) => b.raw_cosine! - a.raw_cosine!)[0]!;
    const answer = await why(view.id, best.memory_id);
    expect(answer.raw_cosine).toBe(best.raw_cosine);
    expect(answer.raw_cosine_used_by_merge).toBe(true);
    expect(answer.ranks).toMatchObject({ semantic: 1, merged: best.rank });
    if (best.in_pool) expect(answer.reason).toBe("on_page");
    else {
      expect(buried.map((n) => n.memory_id)).toContain(best.memory_id);
      expect(["below_page", "outside_fetch_window"]).toContain(answer.reason);
      if (best.keyword_score === null) {
        expect(answer.keyword_score_used_by_merge).toBe(false);
        expect(answer.ranks.keyword).toBeNull();
        expect(answer.keyword_score).toBe(store["index"].keywordScoreOf(view.request.query, best.memory_id));
      }
    }
    console.log(
      `[${kind}] q-006 k=20: best cosine ${best.memory_id} ${best.raw_cosine} at rank ${best.rank}; ` +
        `notices: ${view.notices.map((n) => `${n.kind}:${n.memory_id ?? ""}`).join(", ") || "none"}; why: ${answer.reason}`,
    );
  }, 60_000);

  it("says 'outside the fetch window' for a memory neither arm fetched, with its scores computed now and ranks null", async () => {
    const view = await recall({ query: "what is Maya allergic to?", k: 1, search_mode: "semantic" });
    const fetched = new Set(view.candidates!.map((c) => c.memory_id));
    const outside = (readDemoCorpus() as { id: string }[]).find((m) => !fetched.has(m.id))!;
    const answer = await why(view.id, outside.id);
    expect(answer.reason).toBe("outside_fetch_window");
    expect(answer.ranks).toEqual({ semantic: null, keyword: null, merged: null });
    expect(answer.raw_cosine_used_by_merge).toBe(false);
    expect(answer.raw_cosine).not.toBeNull();
    // Below the last cosine the arm fetched: that is why it was outside the window.
    const last = Math.min(...view.candidates!.map((c) => c.raw_cosine!));
    expect(answer.raw_cosine!).toBeLessThanOrEqual(last);
    expect(answer.keyword_score).toBeNull(); // semantic mode: no BM25 was asked for
  }, 60_000);

  it("on the page, below the page, filtered by type, deleted, and an id the store never had (404)", async () => {
    const view = await recall({ query: "what is Maya allergic to?", k: 3 });
    const first = view.results[0]!.memory_id;
    expect((await why(view.id, first)).reason).toBe("on_page");
    const below = view.candidates!.find((c) => !c.in_pool)!;
    expect(["below_page", "outside_fetch_window"]).toContain((await why(view.id, below.memory_id)).reason);

    const filtered = await recall({ query: "what is Maya allergic to?", k: 3, filters: { types: ["decision"] } });
    const notDecision = (readDemoCorpus() as { id: string; type?: string }[]).find((m) => m.type && m.type !== "decision")!;
    const answer = await why(filtered.id, notDecision.id);
    expect(answer.reason).toBe("filtered_by_type");
    expect(answer.message).toContain('"decision"');

    // Deleted after the recall: it is still known to the log, so "deleted" (or where it ranked).
    const victim = view.candidates![view.candidates!.length - 1]!.memory_id;
    const later = await recall({ query: "an unrelated question about kubernetes", k: 1, search_mode: "semantic" });
    expect(await store.delete(victim)).toBe(true);
    const gone = await why(later.id, victim);
    expect(["deleted", "below_page"]).toContain(gone.reason);

    const unknown = await explainMemory(prisma, view.id, "mem-never-existed", { embedded: async () => store });
    expect(unknown).toEqual({ kind: "unknown_memory", store: "embedded" });
    expect(await explainMemory(prisma, "00000000-0000-4000-8000-000000000000", first, { embedded: async () => store })).toEqual({
      kind: "no_recall",
    });
  }, 120_000);
});
