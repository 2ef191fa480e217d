import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEmbeddedStore } from "@/lib/audit/server/assemble";
import type { AuditFinding, AuditResult, AuditSettings } from "@/lib/audit/types";
import { getEmbedder } from "@/lib/embeddings/server";
import { normalize } from "@/lib/embeddings/types";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { runRecall } from "@/lib/recall-log/server/run-recall";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { encodeVector } from "@/lib/stores/server/search-index/vector-codec";
import { controlCorpus } from "./control-corpus";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "../support/databases";

/**
 * The reachability audit with the real embedder: a store seeded with known cases is
 * classified right, and a clean control store of 200 distinct memories flags nothing.
 */
const SETTINGS: AuditSettings = { shadow_threshold: 0.95, log_days: 30, min_appearances: 3 };

const DUPLICATE = "The staging database password rotates every ninety days and lives in the shared vault.";
const SEEDED = [
  { id: "dup-a", summary: DUPLICATE, type: "fact", tags: ["security"] },
  { id: "dup-b", summary: DUPLICATE, type: "fact", tags: ["security"] },
  {
    id: "near-a",
    summary: "Omar moved the weekly platform sync from Tuesday to Thursday afternoon.",
    type: "fact",
    tags: ["meetings"],
  },
  {
    id: "near-b",
    summary: "Omar moved the weekly platform sync from Tuesday to Thursday afternoons.",
    type: "fact",
    tags: ["meetings"],
  },
  {
    id: "gap-top",
    summary: "The espresso machine on floor three needs descaling every Friday morning.",
    type: "fact",
    tags: ["office"],
  },
  {
    id: "gap-dropped",
    summary: "Coffee beans for the office kitchen are ordered from a small roaster in Porto.",
    type: "fact",
    tags: ["office"],
  },
  {
    id: "gap-dropped-2",
    summary: "The office kitchen on floor three gets a new coffee grinder every spring.",
    type: "fact",
    tags: ["office"],
  },
];
/** Its vector is from another model: the semantic arm cannot see it. */
const STALE = {
  id: "stale-model",
  summary: "The Lisbon office closes early on the last Friday of each month.",
  tags: ["office"],
};
/** Its vector says something else (its summary was edited, not re-embedded): only keywords match its text. */
const KEYWORD_ONLY = {
  id: "keyword-only",
  summary: "Zephyrine is the codename of the offline ledger reconciliation batch job.",
  tags: ["codenames"],
  vectorOf: "Dogs enjoy long walks along the beach at sunset with their owners.",
};
/** Recalls whose score-gap selector drops `gap-dropped` every time it is on the page. */
const GAP_QUERIES = [
  "The espresso machine on floor three needs descaling every Friday morning.",
  "The espresso machine on floor three needs descaling every Friday.",
  "espresso machine on floor three needs descaling every Friday morning",
];

const byId = (result: AuditResult) => new Map(result.findings.map((f) => [f.memory_id, f]));

/** The log classes as counted from the recalls the test logged (the audit reads them back with SQL). */
function expectedLogClasses(views: LoggedRecall[], memoryIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of memoryIds) {
    const seen = views.filter((v) => v.candidates!.some((c) => c.memory_id === id));
    const returned = seen.filter((v) => v.candidates!.find((c) => c.memory_id === id)!.returned);
    const dropped = returned.filter((v) => v.dropped_results.some((r) => r.memory_id === id));
    const classes: string[] = [];
    if (seen.length === 0) classes.push("never_recalled");
    else {
      if (seen.length >= SETTINGS.min_appearances && returned.length === 0) classes.push("always_buried");
      if (returned.length >= SETTINGS.min_appearances && dropped.length === returned.length) classes.push("always_dropped");
    }
    out.set(id, classes);
  }
  return out;
}

describe.each(DATABASE_KINDS)("reachability audit on %s", (kind) => {
  let database: MigratedDatabase | undefined;

  beforeAll(async () => {
    database = await migratedDatabase(kind);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("classifies every seeded case of a store, and nothing else but what its log says", async () => {
    const { prisma } = database!;
    const embedder = getEmbedder();
    const store = new EmbeddedStore(prisma, embedder, { name: "seeded" });
    await store.open();
    const filler = controlCorpus().slice(0, 60);
    const { created } = await store.add([...filler, ...SEEDED]);
    expect(created).toBe(filler.length + SEEDED.length);

    // The log: recalls with the score-gap selector (k = 3), logged as the console logs them.
    const views: LoggedRecall[] = [];
    for (const query of GAP_QUERIES) {
      views.push(await runRecall(RecallBodySchema.parse({ query, k: 3, selector: "gap", search_mode: "hybrid" }), store, prisma));
    }
    // The seeded case holds: on every page, and dropped every time.
    for (const view of views) {
      const page = view.candidates!.filter((c) => c.returned).map((c) => `${c.memory_id} ${c.raw_cosine?.toFixed(3)}`);
      expect(view.dropped_results.map((r) => r.memory_id).sort(), page.join(", ")).toEqual(["gap-dropped", "gap-dropped-2"]);
    }

    // Rows written as an older embedder or an edited summary leave them.
    const [keywordVector] = await embedder.embed([KEYWORD_ONLY.vectorOf]);
    const legacy = normalize(Float32Array.from({ length: embedder.dim }, (_, i) => Math.sin(i + 1)));
    await prisma.memory.createMany({
      data: [
        {
          store: "seeded",
          id: STALE.id,
          summary: STALE.summary,
          type: "fact",
          tags: STALE.tags,
          embedding: encodeVector(legacy),
          embeddingModel: "legacy-embedder-v0",
        },
        {
          store: "seeded",
          id: KEYWORD_ONLY.id,
          summary: KEYWORD_ONLY.summary,
          type: "fact",
          tags: KEYWORD_ONLY.tags,
          embedding: encodeVector(keywordVector!),
          embeddingModel: embedder.id,
        },
      ],
    });
    await store.refreshMemories([STALE.id, KEYWORD_ONLY.id]);
    // The near duplicates are near enough for the threshold.
    const near = await store.nearest("near-a", 1);
    expect(near!.items[0]).toMatchObject({ id: "near-b" });
    expect(near!.items[0]!.cosine).toBeGreaterThanOrEqual(SETTINGS.shadow_threshold);

    const result = await auditEmbeddedStore(prisma, store, SETTINGS);
    const findings = byId(result);
    expect(result.memories).toBe(filler.length + SEEDED.length + 2);
    expect(result.log_recalls).toBe(GAP_QUERIES.length);
    expect(result.notes.join(" ")).toContain("1 memories are embedded with another model");

    // Exact duplicates: one outranks the other on its own probes; listed together.
    const clusterOf = (id: string) => result.clusters.find((c) => c.members.some((m) => m.memory_id === id));
    for (const pair of [
      ["dup-a", "dup-b"],
      ["near-a", "near-b"],
    ]) {
      const shadowed = pair.filter((id) => findings.get(id)?.classes.includes("shadowed"));
      expect(shadowed.length, `${pair.join("/")} shadowed`).toBeGreaterThan(0);
      for (const id of shadowed) {
        expect(findings.get(id)!.shadowed!.by.map((n) => n.memory_id)).toEqual(pair.filter((other) => other !== id));
      }
      const cluster = clusterOf(pair[0]!);
      expect(cluster!.members.map((m) => m.memory_id).sort()).toEqual([...pair].sort());
      expect(cluster!.suggestion).toContain("merge");
    }
    expect(clusterOf("dup-a")!.min_cosine).toBeGreaterThan(0.999);

    // Embedded with another model: the semantic arm cannot reach it, and the reason says so.
    const stale = findings.get(STALE.id)!;
    expect(stale.classes).toContain("unreachable");
    expect(stale.unreachable!.modes).toContain("semantic");
    expect(stale.unreachable!.reasons.find((r) => r.mode === "semantic")!.reason).toBe("embedded_with_another_model");
    expect(stale.best_rank.keyword).not.toBeNull();

    // Only keywords match its text: unreachable in semantic mode for another reason, reached by keyword.
    const keywordOnly = findings.get(KEYWORD_ONLY.id)!;
    expect(keywordOnly.classes).toContain("unreachable");
    expect(keywordOnly.unreachable!.modes).toEqual(["semantic"]);
    const semanticReason = keywordOnly.unreachable!.reasons[0]!;
    expect(["outside_fetch_window", "below_page"]).toContain(semanticReason.reason);
    expect(semanticReason.probe).toMatchObject({ kind: "summary", query: KEYWORD_ONLY.summary, k: 10 });
    expect(keywordOnly.best_rank.keyword).toBe(1);
    expect(keywordOnly.probes.length).toBeGreaterThan(0);

    // The log classes, as the logged recalls count them; the dropped case among them.
    const logged = expectedLogClasses(
      views,
      [...filler, ...SEEDED].map((m) => m.id),
    );
    for (const id of ["gap-dropped", "gap-dropped-2"]) {
      expect(logged.get(id)).toEqual(["always_dropped"]);
      expect(findings.get(id)!.classes).toContain("always_dropped");
      expect(findings.get(id)!.log).toMatchObject({ returned: 3, dropped: 3 });
      expect(findings.get(id)!.log!.recall_ids.sort()).toEqual(views.map((v) => v.id).sort());
    }
    const seededIds = new Set([...SEEDED.map((m) => m.id), STALE.id, KEYWORD_ONLY.id]);
    for (const [id, classes] of logged) {
      const found: AuditFinding | undefined = findings.get(id);
      const logClasses = (found?.classes ?? []).filter((c) => c !== "unreachable" && c !== "shadowed");
      expect(logClasses, id).toEqual(classes);
      // Nothing but the seeded cases is unreachable or shadowed.
      if (!seededIds.has(id)) expect(found?.classes.filter((c) => c === "unreachable" || c === "shadowed") ?? [], id).toEqual([]);
    }
    const unexpected = result.findings.filter(
      (f) => !seededIds.has(f.memory_id) && (f.classes.includes("unreachable") || f.classes.includes("shadowed")),
    );
    expect(unexpected).toEqual([]);
  }, 300_000);

  it.runIf(kind === "pglite")(
    "flags nothing in a clean control store of 200 distinct memories",
    async () => {
      const { prisma } = database!;
      const store = new EmbeddedStore(prisma, getEmbedder(), { name: "control" });
      await store.open();
      const corpus = controlCorpus();
      await store.add(corpus);
      // The control really is distinct: its closest pair is under the threshold.
      let closest = 0;
      for (const m of corpus) closest = Math.max(closest, (await store.nearest(m.id, 1))!.items[0]!.cosine);
      expect(closest).toBeLessThan(SETTINGS.shadow_threshold);

      let progress = 0;
      const result = await auditEmbeddedStore(prisma, store, SETTINGS, { onProgress: (done) => (progress = done) });
      expect(progress).toBe(200);
      expect(result.memories).toBe(200);
      expect(result.findings).toEqual([]);
      expect(result.clusters).toEqual([]);
      expect(Object.values(result.counts).every((n) => n === 0)).toBe(true);
      // 200 memories, up to three probes, three modes, two k.
      expect(result.probe_recalls).toBeGreaterThanOrEqual(200 * 2 * 6);
      expect(result.frequent_words.length).toBeGreaterThan(0);
      expect(result.notes.join(" ")).toContain("not judged");
    },
    300_000,
  );
});
