import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { distinctTerms, keywordTerm, MemoryIndex, normalizeText } from "./memory-index";
import { rng } from "./test-fixtures";
import { readDemoCorpus } from "../embedded/demo-corpus";

/** Text whose word frequencies follow Zipf's law over `vocabulary` words: a few words are in most documents. */
function zipfText(random: () => number, vocabulary: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(`w${Math.floor(Math.pow(vocabulary, random()))}`);
  return out.join(random() < 0.1 ? ", " : " ");
}

/** The keyword arm as it was before pruning: MiniSearch, searched and rescaled the same way. */
function miniSearchArm(docs: { id: string; text: string }[]) {
  const ms = new MiniSearch<{ id: string; text: string }>({
    fields: ["text"],
    storeFields: [],
    idField: "id",
    processTerm: keywordTerm,
    searchOptions: { combineWith: "OR", prefix: false, fuzzy: false, bm25: { k: 1.2, b: 0.75, d: 0 } },
  });
  for (const d of docs) ms.add({ id: d.id, text: normalizeText(d.text) });
  return (query: string, limit: number, accept?: (id: string) => boolean) => {
    const terms = distinctTerms(query);
    if (terms.length === 0) return [];
    return ms
      .search(terms.join(" "), { filter: accept ? (r) => accept(r.id as string) : undefined })
      .map((hit) => ({ id: hit.id as string, score: hit.score / Math.max(1, hit.queryTerms.length) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  };
}

function indexOf(docs: { id: string; text: string; type?: string }[]): MemoryIndex {
  const index = new MemoryIndex(2);
  for (const d of docs) index.upsert([{ id: d.id, vector: null, text: d.text, type: d.type ?? "note", tags: [] }]);
  return index;
}

describe("the keyword arm", () => {
  const random = rng(11);
  const zipf = Array.from({ length: 2500 }, (_, i) => ({
    id: `z${String(i).padStart(5, "0")}`,
    text: zipfText(random, 3000, 5 + Math.floor(random() * 40)),
    type: i % 3 === 0 ? "fact" : "note",
  }));
  const demo = readDemoCorpus().map((m) => {
    const { id, summary, content, tags } = m as { id: string; summary: string; content?: string; tags?: string[] };
    return { id, text: [summary, content ?? "", (tags ?? []).join(" ")].join("\n") };
  });
  const zipfQueries = Array.from({ length: 300 }, () => zipfText(random, 3000, 1 + Math.floor(random() * 6)));
  const demoQueries = demo.slice(0, 150).map((d, i) =>
    d.text
      .split(/\s+/)
      .slice(i % 7, (i % 7) + 2 + (i % 5))
      .join(" "),
  );

  it.each([
    ["a Zipf corpus", zipf, zipfQueries.slice(0, 60)],
    ["the demo corpus", demo, demoQueries],
  ] as const)(
    "returns exactly MiniSearch's hits and scores on %s",
    (_, docs, queries) => {
      const index = indexOf([...docs]);
      const reference = miniSearchArm([...docs]);
      for (const query of queries) {
        for (const limit of [1, 40, 200]) {
          expect(index.keywordTop(query, limit)).toEqual(reference(query, limit));
        }
      }
    },
    120_000,
  );

  it("pruned equals unpruned on many queries, with filters and after removals and re-adds", () => {
    const index = indexOf(zipf);
    const typeOf = new Map(zipf.map((d) => [d.id, d.type]));
    let differentOrders = 0;
    const check = () => {
      for (const query of zipfQueries.slice(0, 100)) {
        for (const limit of [1, 40]) {
          const pruned = index.keywordTop(query, limit);
          expect(pruned).toEqual(index.keywordTop(query, limit, undefined, { prune: false }));
          if (pruned.length > 1) differentOrders++;
          const filter = { types: ["fact"] };
          const filtered = index.keywordTop(query, limit, filter);
          expect(filtered).toEqual(index.keywordTop(query, limit, filter, { prune: false }));
          expect(filtered.every((h) => typeOf.get(h.id) === "fact")).toBe(true);
        }
      }
    };
    check();
    index.remove(zipf.filter((_, i) => i % 5 === 0).map((d) => d.id));
    index.upsert(zipf.slice(0, 50).map((d) => ({ id: d.id, vector: null, text: d.text + " w1 w2", type: "fact", tags: [] })));
    zipf.slice(0, 50).forEach((d) => typeOf.set(d.id, "fact"));
    check();
    expect(differentOrders).toBeGreaterThan(40);
  }, 120_000);

  it("after removals scores like a fresh index of what is left (df counts live documents)", () => {
    const index = indexOf(zipf);
    const removed = new Set(zipf.filter((_, i) => i % 3 === 1).map((d) => d.id));
    index.remove([...removed]);
    const left = zipf.filter((d) => !removed.has(d.id));
    const fresh = indexOf(left);
    for (const query of zipfQueries.slice(0, 100)) {
      const got = index.keywordTop(query, 40);
      const want = fresh.keywordTop(query, 40);
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      // The running average length differs from a fresh one by float rounding only.
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 9));
    }
  }, 120_000);

  it("scores one memory exactly as the arm does (keywordScoreOf), 0 without a matching term, null for an unknown id", () => {
    const index = indexOf(zipf);
    index.remove(zipf.filter((_, i) => i % 7 === 3).map((d) => d.id));
    let compared = 0;
    for (const query of zipfQueries.slice(0, 60)) {
      const all = index.keywordTop(query, 10_000, undefined, { prune: false });
      const scored = new Map(all.map((h) => [h.id, h.score]));
      for (const d of zipf.slice(0, 200)) {
        const one = index.keywordScoreOf(query, d.id);
        if (!index.has(d.id)) expect(one).toBeNull();
        else {
          expect(one).toBe(scored.get(d.id) ?? 0);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
    expect(index.keywordScoreOf("the of and", zipf[0]!.id)).toBe(0);
    expect(index.keywordScoreOf("w1", "no-such-memory")).toBeNull();
  }, 120_000);

  it("breaks score ties by id and keeps repeated and stopword-only queries right", () => {
    const index = indexOf([
      { id: "b", text: "alpha beta" },
      { id: "a", text: "alpha beta" },
      { id: "c", text: "gamma" },
    ]);
    expect(index.keywordTop("alpha alpha", 5).map((h) => h.id)).toEqual(["a", "b"]);
    expect(index.keywordTop("alpha", 1).map((h) => h.id)).toEqual(["a"]);
    expect(index.keywordTop("the of and", 5)).toEqual([]);
  });
});
