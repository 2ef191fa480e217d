/**
 * `npm run eval [-- --k 10] [--set file.jsonl]`: loads the demo corpus into a throw-away embedded
 * store and runs a labeled set (the demo's data/demo/queries.json by default) in each search mode
 * through the app's own evaluation run code (lib/eval/runs.ts → runRecall, every query logged),
 * then prints, per mode:
 * - the first table as it always was (hit@1, hit@5, MRR, level mix on-topic vs the rest), so
 *   before/after figures stay comparable;
 * - the evaluation metrics of GET /api/eval-runs/{id} (nDCG, recall@k, triage and balanced
 *   accuracy, worth-reading precision/recall, AUC per signal), overall and by kind.
 */
import fs from "node:fs";
import path from "node:path";
import { parseItems, parseJsonLines } from "../lib/eval/dataset-schemas";
import { createDataset } from "../lib/eval/datasets";
import { evalMetrics, type MetricBlock } from "../lib/eval/metrics";
import { retrievalReport } from "../lib/eval/retrieval-metrics";
import { EvalRunBodySchema } from "../lib/eval/run-schemas";
import { evalQueueIdle, evalRunReport, startEvalRun } from "../lib/eval/runs";
import { BUILTIN_PROFILES, builtinStoreProfile } from "../lib/profiles/builtin";
import type { SearchMode } from "../lib/recall/merge";
import { withDemoStore } from "./demo-store";
import { runScript, UsageError } from "./run-script";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const f3 = (v: number | null) => (v === null ? "  —  " : v.toFixed(3));

function metricLine(label: string, m: MetricBlock): string {
  return [
    label.padEnd(10),
    String(m.count).padStart(4),
    f3(m.ndcg),
    f3(m.recall_at_k),
    f3(m.triage_accuracy),
    f3(m.balanced_accuracy),
    f3(m.worth_reading.precision),
    f3(m.worth_reading.recall),
    f3(m.auc.top_score),
    f3(m.auc.prominence),
    f3(m.auc.relative_margin),
  ].join("  ");
}

runScript(async () => {
  const k = Number(arg("--k") ?? 10);
  if (!Number.isInteger(k) || k < 1 || k > 100) throw new UsageError("--k is a whole number from 1 to 100");
  const setFile = arg("--set");
  const parsed = setFile
    ? parseJsonLines(fs.readFileSync(setFile, "utf8"))
    : parseItems(JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as unknown[]);
  if (!parsed.ok) throw new UsageError(`the set has invalid items: ${JSON.stringify(parsed.errors.slice(0, 3))}`);

  await withDemoStore("recall-eval-", async ({ prisma, store, created }) => {
    const set = await createDataset(prisma, {
      store: store.name,
      name: setFile ? path.basename(setFile) : "demo",
      items: parsed.items,
    });
    // The store's profile as the app would use it (the embedded store ships with use-lite; no
    // assignments exist in this scratch database), or --profile <built-in name>.
    const profileName = arg("--profile") ?? builtinStoreProfile("embedded");
    const deps = {
      prisma,
      resolveStore: async () => store,
      defaultStore: async () => store.name,
      resolveProfile: async () => BUILTIN_PROFILES.find((p) => p.name === profileName) ?? null,
    };
    if (!BUILTIN_PROFILES.some((p) => p.name === profileName))
      throw new UsageError(`--profile is one of ${BUILTIN_PROFILES.map((p) => p.name).join(", ")}`);
    console.log(
      `demo set: ${created} memories, ${set.count} queries; k=${k}; default thresholds (first table), profile ${profileName} (metrics)\n`,
    );

    const reports = [];
    for (const mode of ["hybrid", "semantic", "keyword"] as SearchMode[]) {
      const started = await startEvalRun(
        deps,
        EvalRunBodySchema.parse({ dataset_id: set.id, store: "embedded", k, search_mode: mode }),
      );
      await evalQueueIdle();
      reports.push({ mode, report: (await evalRunReport(prisma, started!.id))! });
    }

    console.log("mode      hit@1  hit@5  MRR    | on-topic levels high/mod/low/none | off-topic levels high/mod/low/none");
    for (const { mode, report } of reports) {
      const r = retrievalReport(
        report.items.map((i) => ({
          query: {
            id: i.item_id ?? String(i.position),
            query: i.query,
            kind: i.kind ?? (i.relevant.length ? "on_topic" : "off_topic"),
            relevant: i.relevant,
          },
          ranked: i.returned_ids,
          level: i.reference_level ?? "none",
        })),
      );
      const mix = (l: Record<string, number>) => `${l.high}/${l.moderate}/${l.low}/${l.none}`.padEnd(10);
      console.log(
        `${mode.padEnd(9)} ${r.hitAt1.toFixed(3)}  ${r.hitAt5.toFixed(3)}  ${r.mrr.toFixed(3)}  | ${mix(r.levels.on_topic).padStart(33)} | ${mix(r.levels.off_topic).padStart(34)}`,
      );
    }

    console.log(
      `\nevaluation metrics (as GET /api/eval-runs/{id}), triage judged by profile ${profileName}; worth reading = high/moderate; AUC of present vs absent`,
    );
    console.log(`"vs present" rows: that kind's absent queries against every present query of the set\n`);
    const header = [
      "",
      "n",
      `nDCG@${k}`,
      `rec@${k}`,
      "triage",
      "bal.acc",
      "wr.prec",
      "wr.rec",
      "AUC top",
      "AUC prom",
      "AUC rel.m",
    ];
    for (const { mode, report } of reports) {
      const m = report.metrics;
      console.log(`${mode}  (${m.present} present, ${m.absent} absent, ${m.errors} failed)`);
      console.log(`  ${header.map((h, i) => (i === 0 ? h.padEnd(10) : i === 1 ? h.padStart(4) : h.padStart(5))).join("  ")}`);
      console.log(`  ${metricLine("all", m)}`);
      const reference = evalMetrics(
        report.items.map((i) => ({ ...i, ranked: i.returned_ids, level: i.reference_level })),
        k,
      );
      console.log(`  ${metricLine("reference", reference)}   <- triage under the reference constants`);
      for (const [kind, b] of Object.entries(m.by_kind)) {
        console.log(`  ${metricLine(kind, b)}`);
        if (b.present === 0 && b.absent > 0) console.log(`  ${metricLine(`  vs present`, { ...b, auc: b.auc_vs_present })}`);
      }
      const v = m.verdict;
      const pvo = v.present_vs_off_topic;
      console.log(
        `  verdict, present vs off-topic (${pvo.present}/${pvo.off_topic}): balanced accuracy ${f3(pvo.balanced_accuracy)}, AUC of the ${pvo.auc_of.replace("_", " ")} ${f3(pvo.auc)}` +
          (v.calibration
            ? `, ECE ${f3(v.calibration.ece)}, Brier ${f3(v.calibration.brier)}`
            : ", no probability (a profile of the old shape)"),
      );
      const byLevel = v.calibration?.p_present_by_level;
      if (byLevel)
        console.log(
          `  P(present | level), present + off-topic: ${(["high", "moderate", "low", "none"] as const).map((l) => `${l} ${byLevel[l].count}: ${f3(byLevel[l].present_rate)}`).join("; ")}; base rate ${f3(pvo.present / Math.max(1, pvo.present + pvo.off_topic))}`,
        );
      if (v.near_miss)
        console.log(
          `  near-misses apart (${v.near_miss.count}): read worth reading ${f3(v.near_miss.worth_reading_rate)}, AUC vs present ${f3(v.near_miss.auc_vs_present)}`,
        );
      const c = m.confusion;
      console.log(
        `  confusion present/absent: high ${c.high.present}/${c.high.absent}  moderate ${c.moderate.present}/${c.moderate.absent}  low ${c.low.present}/${c.low.absent}  none ${c.none.present}/${c.none.absent}\n`,
      );
    }
    await prisma.$disconnect();
  });
});
