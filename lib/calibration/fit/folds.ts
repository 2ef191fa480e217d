/**
 * Cross-validation: stratified (by present), grouped fold assignment, deterministic for a seed,
 * and the pooled held-out balanced accuracy of fitting with given options. Pure.
 */
import { mulberry32 } from "@/lib/random";
import { balancedAccuracy, countsFromCalls } from "../metrics";
import { worthReading } from "../signals";
import { fitRule, type SignalCache } from "./rule";
import type { FitExample, ResolvedFitOptions } from "./types";

/** Stratified (by present), grouped fold assignment, deterministic for a seed. */
export function assignFolds(examples: readonly Pick<FitExample, "group" | "present">[], folds: number, seed: number): number[] {
  const groups = new Map<string, { present: boolean; members: number[] }>();
  examples.forEach((e, i) => {
    const key = e.group ?? `#${i}`;
    const g = groups.get(key);
    if (g) g.members.push(i);
    else groups.set(key, { present: e.present, members: [i] });
  });
  const rng = mulberry32(seed);
  const out = new Array<number>(examples.length).fill(0);
  for (const cls of [true, false]) {
    const keys = [...groups.entries()].filter(([, g]) => g.present === cls).map(([k]) => k);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    keys.forEach((key, n) => {
      for (const m of groups.get(key)!.members) out[m] = n % folds;
    });
  }
  return out;
}

/** Cross-validated balanced accuracy of fitting with these options (pooled held-out calls). */
export function crossValidate(
  examples: readonly FitExample[],
  cache: SignalCache,
  used: readonly number[],
  o: ResolvedFitOptions,
): { ba: number | null; folds: number; fold_scores: (number | null)[] } {
  const present = examples.map((e) => e.present);
  const groupsOf = (cls: boolean) =>
    new Set(used.filter((i) => present[i] === cls).map((i) => examples[i]!.group ?? `#${i}`)).size;
  const folds = Math.min(o.folds, groupsOf(true), groupsOf(false));
  if (folds < 2) return { ba: null, folds: 0, fold_scores: [] };
  const usedExamples = used.map((i) => examples[i]!);
  const foldOf = assignFolds(usedExamples, folds, o.seed);
  const calls: { present: boolean; worth: boolean }[] = [];
  const foldScores: (number | null)[] = [];
  for (let f = 0; f < folds; f++) {
    const train = used.filter((_, n) => foldOf[n] !== f);
    const test = used.filter((_, n) => foldOf[n] === f);
    const rule = fitRule(cache, train, present, o);
    const signals = cache.get(rule.pool_size);
    const foldCalls = test.map((i) => ({ present: present[i]!, worth: worthReading(signals[i]!, rule.thresholds) }));
    calls.push(...foldCalls);
    foldScores.push(balancedAccuracy(countsFromCalls(foldCalls)));
  }
  return { ba: balancedAccuracy(countsFromCalls(calls)), folds, fold_scores: foldScores };
}
