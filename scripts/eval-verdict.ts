/**
 * The verdict section of `npm run eval` (lib/eval/README.md "Evaluation"): per store,
 * at k = 5 and 10, present vs off-topic balanced accuracy, P(present | high), near-misses apart,
 * AUC, Brier and ECE of the store's verdict —
 * - before: the shipped fit, measured against the null it was fitted with (the demo store's);
 * - after: the same model measured against the store's own null, calibrated without labels;
 * - half the set's queries as labels (every other query of each kind, in set order): a labeled
 *   fit on that half (labels alone, and labels + the store's label-free prior), assigned to the
 *   store, judged on the other half, which it never saw. "after" on the same held-out half is
 *   printed beside it so the rows compare like with like.
 */
import type { PrismaClient } from "@prisma/client";
import type { StoreNull } from "../lib/calibration/model";
import type { Profile } from "../lib/calibration/profile";
import type { DatasetItemInput } from "../lib/eval/dataset-schemas";
import { verdictMetrics, type VerdictMetrics } from "../lib/eval/metrics";
import { outcomeOf, type EvalRunReport } from "../lib/eval/run-schemas";
import { createDataset } from "../lib/eval/server/datasets";
import { SHIPPED_PROFILE } from "../lib/profiles/builtin";
import type { CalibrationRun } from "../lib/profiles/server/calibrate";
import { examplesFromRun, verdictFromLabels, type PriorSource } from "../lib/profiles/server/labeled";

export const VERDICT_KS = [5, 10];

type Judge = (Profile & { store_null: StoreNull | null }) | null;

export interface VerdictContext {
  prisma: PrismaClient;
  store: string;
  datasetId: string;
  items: readonly DatasetItemInput[];
  calibration: CalibrationRun;
  /** Sets the profile the next runs judge with. */
  judgeWith: (judge: Judge) => void;
  /** A hybrid run of a set at k, to its end; its id and report. */
  run: (k: number, datasetId: string) => Promise<{ id: string; report: EvalRunReport }>;
}

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? "  —  " : v.toFixed(3));

/** Every other item of each kind (present items by kind, absent ones by kind), in set order: the labeled half. */
export function labeledHalf(items: readonly DatasetItemInput[]): boolean[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const kind = `${item.kind ?? ""}|${item.relevant.length > 0}`;
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    return n % 2 === 0;
  });
}

/** The verdict figures of a run's items, optionally only those at the given positions. */
function figures(report: EvalRunReport, positions?: ReadonlySet<number>): VerdictMetrics {
  return verdictMetrics(report.items.filter((i) => !positions || positions.has(i.position)).map(outcomeOf));
}

function line(label: string, v: VerdictMetrics, note = ""): string {
  const pvo = v.present_vs_off_topic;
  const high = v.calibration?.p_present_by_level.high;
  const nm = v.near_miss;
  return [
    label.padEnd(34),
    `${pvo.present}/${pvo.off_topic}`.padStart(7),
    f3(pvo.balanced_accuracy),
    `${f3(high?.present_rate)} (${String(high?.count ?? 0).padStart(3)})`,
    nm ? `${f3(nm.worth_reading_rate)} / ${f3(nm.auc_vs_present)} (${String(nm.count).padStart(3)})` : "        —          ",
    f3(pvo.auc),
    f3(v.calibration?.brier),
    f3(v.calibration?.ece),
    note,
  ].join("  ");
}

export async function printVerdictSection(ctx: VerdictContext): Promise<void> {
  const { calibration: cal } = ctx;
  const half = labeledHalf(ctx.items);
  const heldOutItems = ctx.items.filter((_, i) => !half[i]);
  const heldOutPositions = new Set(ctx.items.flatMap((_, i) => (half[i] ? [] : [i])));
  const labeledGroups = new Set(ctx.items.flatMap((item, i) => (half[i] ? [item.id ?? `item-${i}`] : [])));
  const heldOut = await createDataset(ctx.prisma, { store: ctx.store, name: "held-out half", items: heldOutItems });
  const prior: PriorSource = {
    store: ctx.store,
    calibration: { examples: cal.signals, null: cal.null, updated_at: null },
  };

  console.log(
    `\nstore ${ctx.store}: the verdict, hybrid, present vs off-topic (near-misses apart); calibrated without labels on ` +
      `${cal.examples.probes} probes + ${cal.examples.memories} memory-made queries; labels: ${half.filter(Boolean).length} ` +
      `of ${ctx.items.length} queries (every other one of each kind), held out: the other ${heldOutItems.length}`,
  );
  const header = [
    "".padEnd(34),
    "pres/off".padStart(7),
    "bal.acc",
    "P(pres|high) (n)",
    "near-miss wr / AUC (n)",
    "AUC  ",
    "Brier",
    "ECE  ",
  ];
  for (const k of VERDICT_KS) {
    console.log(`\nk = ${k}\n  ${header.join("  ")}`);
    ctx.judgeWith({ ...SHIPPED_PROFILE, store_null: null });
    const before = await ctx.run(k, ctx.datasetId);
    ctx.judgeWith({ ...SHIPPED_PROFILE, store_null: cal.null });
    const after = await ctx.run(k, ctx.datasetId);
    console.log(`  ${line("before: shipped fit", figures(before.report))}`);
    console.log(`  ${line("after: label-free calibration", figures(after.report))}`);
    console.log(`  ${line("  after, held-out half only", figures(after.report, heldOutPositions))}`);
    // The labels are the labeled half's recalls of the "after" run: what a user fits from.
    const loaded = await examplesFromRun(ctx.prisma, after.id);
    const labeled = loaded.examples.filter((e) => e.group !== undefined && labeledGroups.has(e.group));
    for (const [name, source] of [
      ["half labels alone -> held out", null],
      ["half labels + prior -> held out", prior],
    ] as const) {
      const verdict = verdictFromLabels(labeled, source);
      const model = { ...verdict.fit.model, ...(verdict.warning ? { warning: verdict.warning } : {}) };
      ctx.judgeWith({ ...SHIPPED_PROFILE, name: "half-labels", builtin: false, model, store_null: cal.null });
      const held = await ctx.run(k, heldOut.id);
      const e = verdict.fit.model.estimate;
      console.log(
        `  ${line(name, figures(held.report), `fit: ${verdict.basis}, CV bal.acc ${f3(e?.balanced_accuracy)}, ECE ${f3(e?.ece)}${verdict.warning ? " (fewer than 20 of a class: marked)" : ""}`)}`,
      );
    }
  }
  console.log(
    "\n  bal.acc: balanced accuracy present vs off-topic, worth reading = high/moderate; P(pres|high): share of 'high' with something relevant" +
      " stored; near-miss wr: share of near-misses read worth reading, AUC of present vs near-miss; AUC, Brier, ECE of the probability, present vs off-topic",
  );
}
