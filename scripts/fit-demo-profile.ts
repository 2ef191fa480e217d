/**
 * `npm run fit-demo-profile [-- --check]`: reproduces the shipped USE-lite profile. Loads the
 * demo corpus (data/demo) into a throw-away embedded store, runs its 106 labeled queries in
 * hybrid mode at k = 5, 10 and 20, and fits two things (one query's three recalls stay in one
 * fold):
 * - the profile's thresholds (the reference-shaped rule, lib/calibration/fit), as before;
 * - the store's verdict model (lib/calibration/model): the bundled probe queries
 *   (data/calibration) give the demo store's null, the model is fitted on store-relative signals
 *   with 5-fold cross-validation, and the held-out figures are printed: balanced accuracy present
 *   vs off-topic, AUC, Brier, ECE, P(present | level), near-misses apart.
 * Writes data/demo/use-lite-profile.json (thresholds and `model`), which an embedded store uses
 * until it has calibrated itself. `--check` prints without writing.
 */
import fs from "node:fs";
import path from "node:path";
import { withDemoStore } from "./demo-store";
import { runScript } from "./run-script";
import { evaluateProfile, fitProfile, type FitExample, type FitResult } from "../lib/calibration/fit";
import {
  fitVerdictModel,
  recallSignals,
  storeNull,
  type RecallSignals,
  type VerdictExample,
  type VerdictFit,
} from "../lib/calibration/model";
import { DEFAULT_PROFILE } from "../lib/calibration/profile";
import { probeQueries } from "../lib/profiles/server/probes";
import type { SearchMode } from "../lib/recall/merge";

const OUT = path.join(__dirname, "..", "data", "demo", "use-lite-profile.json");
const KS = [5, 10, 20];

interface DemoQuery {
  id: string;
  query: string;
  kind: string;
  relevant: string[];
}

runScript(async () => {
  const check = process.argv.includes("--check");
  const queries = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as DemoQuery[];
  await withDemoStore("recall-fit-", async ({ prisma, store, created }) => {
    const examples: Record<string, FitExample[]> = {};
    const verdictExamples: VerdictExample[] = [];
    for (const mode of ["hybrid", "semantic"] as SearchMode[]) {
      for (const k of KS) {
        const list: FitExample[] = [];
        for (const q of queries) {
          const outcome = await store.recall({ query: q.query, k, searchMode: mode });
          list.push({ group: q.id, present: q.relevant.length > 0, kind: q.kind, k, candidates: outcome.candidates ?? [] });
          if (mode === "hybrid")
            verdictExamples.push({
              group: q.id,
              present: q.relevant.length > 0,
              kind: q.kind,
              signals: recallSignals(outcome.candidates ?? [], outcome.keywordEvidence),
            });
        }
        examples[`${mode}:${k}`] = list;
      }
    }
    const probes: RecallSignals[] = [];
    for (const query of probeQueries()) {
      const outcome = await store.recall({ query, k: 10, searchMode: "hybrid" });
      probes.push(recallSignals(outcome.candidates ?? [], outcome.keywordEvidence));
    }
    const nul = { ...storeNull(probes), memories: created };
    const verdict = fitVerdictModel(verdictExamples, { relativeTo: nul, method: "shipped" });
    printVerdict(verdict, probes.length);
    const train = KS.flatMap((k) => examples[`hybrid:${k}`]!);
    const fit = fitProfile(train, { name: "use-lite" });
    console.log(
      `demo set: ${created} memories, ${queries.length} queries (${queries.filter((q) => q.relevant.length).length} present, ${queries.filter((q) => !q.relevant.length).length} absent), hybrid, k = ${KS.join("/")}\n`,
    );
    console.log(
      `fitted: shape ${fit.shape}, pool_size ${fit.pool_size}, cut (abs_low = abs_moderate) ${fit.thresholds.abs_low_cosine}, moderate_prominence ${fit.thresholds.moderate_prominence}`,
    );
    console.log(
      `shapes tried (5-fold CV / training): ${fit.shapes.map((s) => `${s.shape} pool ${s.pool_size}: ${f(s.balanced_accuracy)} / ${f(s.train_balanced_accuracy)}`).join("; ")}`,
    );
    console.log(
      `over k=5/10/20: fitted train ${f(fit.estimate.train_balanced_accuracy)}, CV ${f(fit.estimate.balanced_accuracy)} (folds ${fit.estimate.fold_scores.map(f).join(", ")}); reference ${f(fit.reference.balanced_accuracy)}\n`,
    );
    console.log(
      "balanced accuracy, present vs off-topic (reference constants | shipped profile train | CV of the same fit at that k alone)",
    );
    for (const key of Object.keys(examples)) {
      const list = examples[key]!;
      const perK = fitProfile(list, { name: "use-lite" });
      const ref = evaluateProfile(list, DEFAULT_PROFILE).balanced_accuracy;
      const shipped = evaluateProfile(list, fit).balanced_accuracy;
      console.log(
        `  ${key.padEnd(12)} reference ${f(ref)} | shipped ${f(shipped)} | CV ${f(perK.estimate.balanced_accuracy)} (train ${f(perK.estimate.train_balanced_accuracy)})`,
      );
    }
    console.log(
      `\nby kind (k=5/10/20 pooled): ${Object.entries(fit.by_kind)
        .map(([k, r]) => `${k} ${r.count}: shipped ${f(r.fitted_accuracy)}, reference ${f(r.reference_accuracy)}`)
        .join("; ")}`,
    );
    if (!check) {
      fs.writeFileSync(
        OUT,
        JSON.stringify({ ...shippedProfile(fit, created, queries.length), model: verdict.model }, null, 2) + "\n",
      );
      console.log(`\nwrote ${path.relative(process.cwd(), OUT)}`);
    }
    await prisma.$disconnect();
  });
});

function printVerdict(fit: VerdictFit, probes: number): void {
  const e = fit.model.estimate!;
  const level = (l: "high" | "moderate" | "low" | "none") =>
    `${l} ${e.p_present_by_level[l].count}: ${f(e.p_present_by_level[l].present_rate)}`;
  console.log(
    `verdict model: logistic on ${fit.model.features.join(", ")}, store-relative (null from ${probes} probe queries), ` +
      `${fit.model.trained_on.present} present / ${fit.model.trained_on.absent} off-topic recalls (k = 5/10/20; near-misses apart)`,
  );
  console.log(
    `  ${fit.model.folds}-fold CV, present vs off-topic: balanced accuracy ${f(e.balanced_accuracy)}, AUC ${f(e.auc)}, Brier ${f(e.brier)}, ECE ${f(e.ece)}`,
  );
  console.log(`  P(present | level), held out: ${(["high", "moderate", "low", "none"] as const).map(level).join("; ")}`);
  console.log(
    `  base rate in the fit: ${f(fit.model.trained_on.present / fit.model.trained_on.examples)} (probabilities are stated for even odds)`,
  );
  for (const [kind, a] of Object.entries(fit.apart)) {
    const worth = a.p_present_by_level.high.count + a.p_present_by_level.moderate.count;
    console.log(
      `  ${kind} (apart, ${a.count}): read as worth reading ${f(worth / Math.max(1, a.count))} — no bi-encoder signal tells them apart`,
    );
  }
  console.log(
    `  weights (standardised): ${fit.model.features.map((n, j) => `${n} ${f(fit.model.logistic.weights[j])}`).join(", ")}\n`,
  );
}

function f(x: number | null | undefined): string {
  return x === null || x === undefined ? "n/a" : x.toFixed(3);
}

function shippedProfile(fit: FitResult, memories: number, queries: number) {
  return {
    name: "use-lite",
    description:
      `Fitted on the demo corpus (${memories} memories, ${queries} labeled queries, hybrid, k = 5/10/20) for USE-lite: ` +
      `worth reading when the top raw cosine of the first ${fit.pool_size ?? "k"} merged candidates is ≥ ${fit.thresholds.abs_low_cosine}` +
      (fit.thresholds.moderate_prominence > 0
        ? ` and prominence ≥ ${fit.thresholds.moderate_prominence}`
        : " (prominence admits every pool)") +
      ". Reproduce with npm run fit-demo-profile.",
    thresholds: fit.thresholds,
    pool_size: fit.pool_size,
    source: {
      kind: "fit",
      dataset: "demo (data/demo/queries.json)",
      fitted_at: new Date().toISOString().slice(0, 10),
      estimate: {
        balanced_accuracy: fit.estimate.balanced_accuracy,
        train_balanced_accuracy: fit.estimate.train_balanced_accuracy,
        folds: fit.estimate.folds,
      },
      note: `npm run fit-demo-profile; shape ${fit.shape}; reference constants on the same recalls: ${f(fit.reference.balanced_accuracy)}`,
    },
  };
}
