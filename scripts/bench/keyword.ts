/**
 * `npm run bench -- keyword [--docs 100000] [--queries 400] [--limit 40] [--baseline]`
 *
 * The keyword arm at scale on real English: documents of 15–45 words drawn from the demo corpus's
 * own words at their own frequencies (so "service", "team", "postgres" match tens of thousands of
 * documents, as common words do), queries from data/demo/queries.json and from corpus phrases.
 * Prints p50/p95 of the pruned arm (MaxScore) and of the same index scoring every match, checks
 * they return the same hits, and with --baseline also the MiniSearch arm this replaced.
 */
import MiniSearch from "minisearch";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fmtMs, mib, option, percentile, prng } from "./stats";
import { readDemoCorpus } from "../../lib/stores/server/embedded/demo-corpus";
import { distinctTerms, keywordTerm, MemoryIndex, normalizeText } from "../../lib/stores/server/search-index/memory-index";

export async function run(args: string[]): Promise<void> {
  const docs = Number(option(args, "docs", "100000"));
  const queryCount = Number(option(args, "queries", "400"));
  const limit = Number(option(args, "limit", "40"));
  const baseline = args.includes("--baseline");
  const random = prng(5);
  const corpus = readDemoCorpus().map((m) => {
    const { summary, content, tags } = m as { summary: string; content?: string; tags?: string[] };
    return [summary, content ?? "", (tags ?? []).join(" ")].join("\n");
  });
  const words = corpus.join(" ").split(/\s+/).filter(Boolean);
  const text = () =>
    Array.from({ length: 15 + Math.floor(random() * 30) }, () => words[Math.floor(random() * words.length)]!).join(" ");
  const labeled = (
    JSON.parse(fs.readFileSync(path.join(process.cwd(), "data", "demo", "queries.json"), "utf8")) as { query: string }[]
  ).map((q) => q.query);
  const phrases = Array.from({ length: Math.max(0, queryCount - labeled.length) }, () => {
    const start = Math.floor(random() * (words.length - 8));
    return words.slice(start, start + 2 + Math.floor(random() * 6)).join(" ");
  });
  const queries = [...labeled, ...phrases].slice(0, queryCount);

  console.log(`keyword benchmark — node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  const buildStart = performance.now();
  const index = new MemoryIndex(1);
  const texts: string[] = [];
  for (let i = 0; i < docs; i++) {
    const t = text();
    texts.push(t);
    index.upsert([{ id: `d${i}`, vector: null, text: t, type: "fact", tags: [] }]);
  }
  const buildMs = performance.now() - buildStart;
  const df = new Map<string, number>();
  for (const t of texts) for (const term of new Set(distinctTerms(t))) df.set(term, (df.get(term) ?? 0) + 1);
  const commonest = [...df].sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(
    `${docs.toLocaleString("en")} documents indexed in ${fmtMs(buildMs)} ms (rss ${mib(process.memoryUsage().rss)}); commonest terms: ${commonest.map(([t, n]) => `"${t}" in ${n.toLocaleString("en")}`).join(", ")}`,
  );

  let ms: ((q: string) => unknown) | null = null;
  if (baseline) {
    const mini = new MiniSearch<{ id: string; text: string }>({
      fields: ["text"],
      storeFields: [],
      idField: "id",
      processTerm: keywordTerm,
      searchOptions: { combineWith: "OR", prefix: false, fuzzy: false, bm25: { k: 1.2, b: 0.75, d: 0 } },
    });
    texts.forEach((t, i) => mini.add({ id: `d${i}`, text: normalizeText(t) }));
    ms = (q) =>
      mini
        .search(distinctTerms(q).join(" "))
        .map((h) => ({ id: h.id as string, score: h.score / Math.max(1, h.queryTerms.length) }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit);
  }

  const time = (fn: () => unknown) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  for (const q of queries.slice(0, 20)) {
    index.keywordTop(q, limit);
    index.keywordTop(q, limit, undefined, { prune: false });
  }
  const pruned: number[] = [];
  const full: number[] = [];
  const mini: number[] = [];
  let differ = 0;
  for (const q of queries) {
    let a: unknown;
    let b: unknown;
    pruned.push(time(() => (a = index.keywordTop(q, limit))));
    full.push(time(() => (b = index.keywordTop(q, limit, undefined, { prune: false }))));
    if (JSON.stringify(a) !== JSON.stringify(b)) differ++;
    if (ms) mini.push(time(() => ms(q)));
  }
  const line = (label: string, s: number[]) =>
    console.log(
      `  ${label.padEnd(40)} ${fmtMs(percentile(s, 50)).padStart(7)}  ${fmtMs(percentile(s, 95)).padStart(7)}  ${fmtMs(Math.max(...s)).padStart(7)}`,
    );
  console.log(`\n${queries.length} queries, top ${limit}:                         p50      p95      max   (ms)`);
  line("pruned (MaxScore)", pruned);
  line("same index, every match scored", full);
  if (ms) line("MiniSearch (the arm before)", mini);
  console.log(`  pruned hits and scores identical to unpruned: ${queries.length - differ}/${queries.length}`);
}
