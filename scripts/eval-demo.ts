/**
 * `npm run eval [-- --k 10] [--set file.jsonl] [--memories file.jsonl]`: loads the demo corpus into a
 * throw-away embedded store (and with `--memories`, that corpus into a store of its own beside it,
 * calibrated without labels, which the set then runs against: once with the shipped fit's null,
 * once with the store's own) and runs a labeled set (the demo's data/demo/queries.json by default) in each search mode
 * through the app's own evaluation run code (lib/eval/runs.ts → runRecall, every query logged),
 * then prints, per mode:
 * - the first table as it always was (hit@1, hit@5, MRR, level mix on-topic vs the rest), so
 *   before/after figures stay comparable;
 * - the evaluation metrics of GET /api/eval-runs/{id} (nDCG, recall@k, triage and balanced
 *   accuracy, worth-reading precision/recall, AUC per signal), overall and by kind;
 * - then, per store, the verdict at k = 5 and 10 before (the shipped fit) and after the store's
 *   label-free calibration, and with half the set's queries as labels judged on the other half
 *   (eval-verdict.ts). The demo store calibrates itself too for this section.
 */
import type { PrismaClient } from "@prisma/client";
import fs from "node:fs";
import path from "node:path";
import { withDemoStore } from "./demo-store";
import { printVerdictSection } from "./eval-verdict";
import { runScript, UsageError } from "./run-script";
import type { StoreNull } from "../lib/calibration/model";
import type { Profile } from "../lib/calibration/profile";
import { parseItems, parseJsonLines } from "../lib/eval/dataset-schemas";
import { evalMetrics, type MetricBlock } from "../lib/eval/metrics";
import { retrievalReport } from "../lib/eval/retrieval-metrics";
import { EvalRunBodySchema } from "../lib/eval/run-schemas";
import { createDataset } from "../lib/eval/server/datasets";
import { evalQueueIdle, evalRunReport, startEvalRun } from "../lib/eval/server/runs";
import { BUILTIN_PROFILES, builtinStoreProfile, SHIPPED_PROFILE } from "../lib/profiles/builtin";
import { memoryQueries, runCalibration, type CalibrationRun } from "../lib/profiles/server/calibrate";
import type { SearchMode } from "../lib/recall/merge";
import { EmbeddedStore } from "../lib/stores/server/embedded/embedded-store";

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

  await withDemoStore("recall-eval-", async ({ prisma, store: demoStore, created: demoCreated }) => {
    // --memories: the set runs against its own store beside the demo store, calibrated without
    // labels first (lib/calibration/README.md "Threshold profiles"), as a user's store would be.
    const own = arg("--memories") ? await ownStore(prisma, demoStore, arg("--memories")!) : null;
    const store = own?.store ?? demoStore;
    const created = own?.created ?? demoCreated;
    const set = await createDataset(prisma, {
      store: store.name,
      name: setFile ? path.basename(setFile) : "demo",
      items: parsed.items,
    });
    // The store's profile as the app would use it (the embedded store ships with use-lite; no
    // assignments exist in this scratch database), or --profile <built-in name>.
    const profileName = arg("--profile") ?? builtinStoreProfile("embedded");
    // The verdict section sets the profile its runs judge with; the tables above use --profile.
    let judge: (Profile & { store_null: StoreNull | null }) | null = null;
    const deps = {
      prisma,
      resolveStore: async () => store,
      defaultStore: async () => store.name,
      resolveProfile: async () => {
        if (judge) return judge;
        const found = BUILTIN_PROFILES.find((p) => p.name === profileName) ?? null;
        return found && own && calibrated ? { ...found, store_null: own.calibration.null } : found;
      },
    };
    let calibrated = false;
    if (!BUILTIN_PROFILES.some((p) => p.name === profileName))
      throw new UsageError(`--profile is one of ${BUILTIN_PROFILES.map((p) => p.name).join(", ")}`);
    console.log(
      `${own ? `store ${store.name} (beside demo)` : "demo set"}: ${created} memories, ${set.count} queries; k=${k}; default thresholds (first table), profile ${profileName} (metrics)\n`,
    );
    const run = async (mode: SearchMode, runK = k, datasetId = set.id) => {
      const started = await startEvalRun(
        deps,
        EvalRunBodySchema.parse({ dataset_id: datasetId, store: "embedded", k: runK, search_mode: mode }),
      );
      await evalQueueIdle();
      return { mode, id: started!.id, report: (await evalRunReport(prisma, started!.id))! };
    };

    const reports = [];
    if (own) {
      // Before: the shipped fit's null; after: the store's own, learnt from the probes.
      const before = await run("hybrid");
      calibrated = true;
      const e = own.calibration.estimate;
      console.log(
        `calibrated without labels: ${own.calibration.examples.probes} probes, ${own.calibration.examples.memories} memory-made queries; label-free estimate BA ${f3(e?.balanced_accuracy ?? null)}, probes read worth reading ${f3(e?.probes_worth_reading ?? null)}\n`,
      );
      reports.push({ ...before, mode: "hybrid, shipped null (before)" as SearchMode });
    }
    for (const mode of ["hybrid", "semantic", "keyword"] as SearchMode[]) reports.push(await run(mode));

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

    await printVerdictSection({
      prisma,
      store: store.name,
      datasetId: set.id,
      items: parsed.items,
      calibration: own?.calibration ?? (await calibrateDemo(prisma, demoStore, demoCreated)),
      judgeWith: (next) => (judge = next),
      run: async (runK, datasetId) => run("hybrid", runK, datasetId),
    });
    await prisma.$disconnect();
  });
});

/** The demo store calibrated without labels as the app calibrates a store (store-calibration.ts: summaries in id order). */
async function calibrateDemo(prisma: PrismaClient, store: EmbeddedStore, memories: number): Promise<CalibrationRun> {
  const rows = await prisma.memory.findMany({
    where: { store: store.name },
    select: { summary: true },
    orderBy: { id: "asc" },
    take: 2_000,
  });
  return runCalibration(store, {
    memoryQueries: memoryQueries(rows.map((m) => m.summary)),
    memories,
    model: SHIPPED_PROFILE.model ?? null,
  });
}

/** A store of its own for `--memories file.jsonl`, beside the demo store, calibrated without labels. */
async function ownStore(prisma: PrismaClient, demo: EmbeddedStore, file: string) {
  const memories = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { summary?: string });
  const store = new EmbeddedStore(prisma, demo.embedder, { name: "eval-store" });
  const { created } = await store.add(memories);
  const calibration = await runCalibration(store, {
    memoryQueries: memoryQueries(memories.map((m) => m.summary ?? "").filter(Boolean)),
    memories: created,
    model: SHIPPED_PROFILE.model ?? null,
  });
  return { store, created, calibration };
}
