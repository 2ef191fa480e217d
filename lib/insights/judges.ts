/**
 * The level under each judge, and how often it agrees with the selector and with the labels
 * (pure, client-safe). A judge is one of (lib/calibration/README.md "Threshold profiles"):
 * - the store's verdict (`judge: "verdict"`): every recall as its store judged it when it was
 *   logged — its profile's level (`profile_level`) where a profile judged it, else the reference
 *   level. What the console leads with, and what Insights shows first;
 * - the reference rules (`"reference"`): every recall's `level`, what the agent saw;
 * - a threshold profile (`"profile"`): the recalls it judged, their `profile_level`.
 *
 * The level's verdict is "worth reading" (high or moderate) or "weak" (low or none):
 * - against the selector: it kept something (yes) or kept nothing (no), over the recalls it ran
 *   on that state both kept and dropped;
 * - against a label: something relevant was present (yes) or not (no); unsure labels are left out.
 * Agreement = worth·yes + weak·no, over the four cells; null over nothing.
 */
import { ratio } from "./rates";
import type {
  Agreement,
  InsightSeriesPoint,
  InsightsResponse,
  JudgeBucket,
  JudgeInsight,
  JudgeKind,
  VerdictCounts,
} from "./schema";

const LEVELS = ["high", "moderate", "low", "none"] as const;
type CountedLevel = (typeof LEVELS)[number];

const isLevel = (level: string | null | undefined): level is CountedLevel =>
  level !== null && level !== undefined && (LEVELS as readonly string[]).includes(level);
const isWorth = (level: CountedLevel) => level === "high" || level === "moderate";

export interface AgreementCells {
  worth_yes: number;
  worth_no: number;
  weak_yes: number;
  weak_no: number;
}

export const NO_CELLS: AgreementCells = Object.freeze({ worth_yes: 0, worth_no: 0, weak_yes: 0, weak_no: 0 });

export function agreementOf(cells: AgreementCells): Agreement {
  const total = cells.worth_yes + cells.worth_no + cells.weak_yes + cells.weak_no;
  const agree = cells.worth_yes + cells.weak_no;
  return { ...cells, total, agree, rate: ratio(agree, total) };
}

/** Adds `yes` and `no` recalls of one level to a 2×2. */
function addCells(cells: AgreementCells, level: CountedLevel, yes: number, no: number): AgreementCells {
  return isWorth(level)
    ? { ...cells, worth_yes: cells.worth_yes + yes, worth_no: cells.worth_no + no }
    : { ...cells, weak_yes: cells.weak_yes + yes, weak_no: cells.weak_no + no };
}

/** One grouped row of counters: by reference level, or by (profile, judged level) with or without a bucket. */
export interface JudgeCountRow {
  set: "level" | "judge" | "judgeBucket";
  /** The reference level (set "level") or the judge's level (the others); "" for none. */
  level: string | null;
  /** "" or null: the reference rules judged these recalls. */
  profile_name: string | null;
  local_bucket: string | null;
  /** Recalls that did not fail. */
  ok: number;
  /** Selector ran and stated kept and dropped; of them, kept nothing. */
  counted: number;
  kept_none: number;
}

/** Labeled recalls by level: by reference level (`by` "level") or by the level each recall was judged with ("judge"). */
export interface LabelCountRow {
  by: "level" | "judge";
  level: string | null;
  profile_name: string | null;
  present: string;
  n: number;
}

interface Acc {
  counts: Record<CountedLevel, number>;
  selector: AgreementCells;
  labels: AgreementCells;
  buckets: Map<string, Record<CountedLevel, number>>;
}

const zeroCounts = (): Record<CountedLevel, number> => ({ high: 0, moderate: 0, low: 0, none: 0 });
const newAcc = (): Acc => ({ counts: zeroCounts(), selector: NO_CELLS, labels: NO_CELLS, buckets: new Map() });

/** Adds one grouped row of a judge's level to its counts (set "judge") or to its bucket (set "judgeBucket"). */
function addJudged(acc: Acc, row: JudgeCountRow, level: CountedLevel) {
  if (row.set === "judge") {
    acc.counts[level] += row.ok;
    acc.selector = addCells(acc.selector, level, row.counted - row.kept_none, row.kept_none);
  } else if (row.local_bucket !== null) {
    const bucket = acc.buckets.get(row.local_bucket) ?? zeroCounts();
    bucket[level] += row.ok;
    acc.buckets.set(row.local_bucket, bucket);
  }
}

/**
 * The judges of an answer, the store's verdict first, then the reference rules, then each
 * profile (most recalls first). The verdict is the sum over every judge's own recalls — the
 * rows grouped by (profile, judged level), whose level is the profile's where one judged the
 * recall and the reference level where none did — so it needs no grouping of its own.
 */
export function shapeJudges(
  series: readonly Pick<InsightSeriesPoint, "local_start" | "high" | "moderate" | "low" | "none">[],
  rows: readonly JudgeCountRow[],
  labelRows: readonly LabelCountRow[],
): JudgeInsight[] {
  const verdict = newAcc();
  const reference = newAcc();
  const profiles = new Map<string, Acc>();
  const profileAcc = (name: string) => {
    let acc = profiles.get(name);
    if (!acc) profiles.set(name, (acc = newAcc()));
    return acc;
  };

  for (const row of rows) {
    if (!isLevel(row.level)) continue;
    if (row.set === "level") {
      reference.counts[row.level] += row.ok;
      reference.selector = addCells(reference.selector, row.level, row.counted - row.kept_none, row.kept_none);
      continue;
    }
    // Every recall is in the verdict, under the level its store judged it with.
    addJudged(verdict, row, row.level);
    // The recalls no profile judged are in the reference judge already (set "level").
    if (row.profile_name) addJudged(profileAcc(row.profile_name), row, row.level);
  }

  for (const row of labelRows) {
    if (!isLevel(row.level) || (row.present !== "yes" && row.present !== "no")) continue;
    const yes = row.present === "yes" ? row.n : 0;
    const no = row.present === "no" ? row.n : 0;
    if (row.by === "level") {
      reference.labels = addCells(reference.labels, row.level, yes, no);
      continue;
    }
    verdict.labels = addCells(verdict.labels, row.level, yes, no);
    if (row.profile_name) {
      const acc = profileAcc(row.profile_name);
      acc.labels = addCells(acc.labels, row.level, yes, no);
    }
  }

  const judge = (kind: JudgeKind, profile: string | null, acc: Acc, buckets: JudgeBucket[]): JudgeInsight => {
    const { high, moderate, low, none } = acc.counts;
    const recalls = high + moderate + low + none;
    return {
      judge: kind,
      profile,
      recalls,
      high,
      moderate,
      low,
      none,
      level_mix:
        recalls > 0 ? { high: high / recalls, moderate: moderate / recalls, low: low / recalls, none: none / recalls } : null,
      selector: agreementOf(acc.selector),
      labels: agreementOf(acc.labels),
      series: buckets,
    };
  };
  const bucketsOf = (acc: Acc): JudgeBucket[] =>
    series.map((p) => ({ local_start: p.local_start, ...(acc.buckets.get(p.local_start) ?? zeroCounts()) }));

  const referenceSeries = series.map((p) => ({
    local_start: p.local_start,
    high: p.high,
    moderate: p.moderate,
    low: p.low,
    none: p.none,
  }));
  const named = [...profiles.entries()]
    .map(([name, acc]) => judge("profile", name, acc, bucketsOf(acc)))
    .filter((j) => j.recalls > 0 || j.labels.total > 0)
    .sort((a, b) => b.recalls - a.recalls || String(a.profile).localeCompare(String(b.profile)));
  return [judge("verdict", null, verdict, bucketsOf(verdict)), judge("reference", null, reference, referenceSeries), ...named];
}

/** The store's verdict's level counts of one group (a store, a model) from its (profile, judged level) rows. */
export function verdictCounts(rows: readonly { level: string | null; ok: number }[]): VerdictCounts {
  const counts = zeroCounts();
  for (const row of rows) if (isLevel(row.level)) counts[row.level] += row.ok;
  const n = counts.high + counts.moderate + counts.low + counts.none;
  return { ...counts, weak_hit_rate: ratio(counts.low + counts.none, n) };
}

// ---------------------------------------------------------------------------------------------
// Which judge a page shows: the store's verdict unless the URL names another.

/** A judge as a page names it. */
export type JudgeKey = { judge: "verdict" } | { judge: "reference" } | { judge: "profile"; profile: string };

export const VERDICT_JUDGE: JudgeKey = Object.freeze({ judge: "verdict" });
export const REFERENCE_JUDGE: JudgeKey = Object.freeze({ judge: "reference" });

/**
 * The reference rules in a URL's `judge`. A profile name starts with a letter or a digit
 * (lib/calibration/profile.ts), so this can name no profile: a link naming a profile keeps
 * meaning that profile.
 */
export const REFERENCE_JUDGE_PARAM = "_reference";
/** The store's verdict, the default: written as no `judge` at all; read from this too. */
export const VERDICT_JUDGE_PARAM = "_verdict";

/** A URL's `judge` (unset: the store's verdict) → the judge it names. */
export function judgeKeyOf(param: string | null | undefined): JudgeKey {
  if (param === undefined || param === null || param === "" || param === VERDICT_JUDGE_PARAM) return VERDICT_JUDGE;
  if (param === REFERENCE_JUDGE_PARAM) return REFERENCE_JUDGE;
  return { judge: "profile", profile: param };
}

/** The judge → the URL's `judge` (undefined for the default, the store's verdict). */
export function judgeParamOf(key: JudgeKey): string | undefined {
  return key.judge === "verdict" ? undefined : key.judge === "reference" ? REFERENCE_JUDGE_PARAM : key.profile;
}

/** The key of a judge of an answer. */
export function keyOfJudge(judge: Pick<JudgeInsight, "judge" | "profile">): JudgeKey {
  return judge.judge === "profile" && judge.profile !== null
    ? { judge: "profile", profile: judge.profile }
    : judge.judge === "reference"
      ? REFERENCE_JUDGE
      : VERDICT_JUDGE;
}

export function sameJudge(a: JudgeKey, b: JudgeKey): boolean {
  return a.judge === b.judge && (a.judge !== "profile" || a.profile === (b as { profile?: string }).profile);
}

/** The answer's judge for a key, if it has one. */
export function findJudge<J extends Pick<JudgeInsight, "judge" | "profile">>(judges: readonly J[], key: JudgeKey): J | undefined {
  return judges.find((j) => sameJudge(keyOfJudge(j), key));
}

/** A judge's name in a picker or a table: "The store's verdict", "Reference rules", "Profile x". */
export function judgeName(key: JudgeKey): string {
  return key.judge === "verdict"
    ? "The store's verdict"
    : key.judge === "reference"
      ? "Reference rules"
      : `Profile ${key.profile}`;
}

/** A judge in a column heading: "store's verdict", "reference rules", "profile x". */
export function judgeShortName(key: JudgeKey): string {
  return key.judge === "verdict" ? "store's verdict" : key.judge === "reference" ? "reference rules" : `profile ${key.profile}`;
}

/** What a judge's level counts, as the sentence under the level chart. */
export function judgeMeaning(key: JudgeKey): string {
  if (key.judge === "verdict")
    return "Judged by the store's verdict: each recall as its store judged it when it was logged — the level under the store's threshold profile, or the reference level where the reference rules judged it.";
  if (key.judge === "reference") return "Judged by the reference rules: every recall's reference level, what the agent saw.";
  return `Judged by profile ${key.profile}: its level of the recalls it judged; the others are not in this mix.`;
}

/** The level chart's title under a judge. */
export function levelMixTitle(key: JudgeKey): string {
  if (key.judge === "verdict") return "Level mix: the store's verdict";
  if (key.judge === "reference") return "Level mix: the reference rules";
  return `Level mix under profile ${key.profile}`;
}

/**
 * The answer's series and totals with the level counts of one judge, for the level chart and the
 * bucket table. The reference rules' are the answer as it is; null when the answer has no such
 * judge. Levels a judge did not give (failed recalls, recalls it did not judge) are not in its mix.
 */
export function levelDataUnder<D extends Pick<InsightsResponse, "series" | "totals" | "bucket" | "judges">>(
  data: D,
  key: JudgeKey,
): D | null {
  if (key.judge === "reference") return data;
  const judge = findJudge(data.judges, key);
  if (!judge) return null;
  const byBucket = new Map(judge.series.map((b) => [b.local_start, b]));
  const series = data.series.map((p) => {
    const b = byBucket.get(p.local_start) ?? { high: 0, moderate: 0, low: 0, none: 0 };
    const n = b.high + b.moderate + b.low + b.none;
    return {
      ...p,
      high: b.high,
      moderate: b.moderate,
      low: b.low,
      none: b.none,
      // The verdict judges every recall with a level; a profile only those it judged.
      unknown_level: key.judge === "verdict" ? Math.max(0, p.ok - n) : 0,
      weak_hit_rate: ratio(b.low + b.none, n),
      level_mix: n > 0 ? { high: b.high / n, moderate: b.moderate / n, low: b.low / n, none: b.none / n } : null,
    };
  });
  const n = judge.high + judge.moderate + judge.low + judge.none;
  const totals = {
    ...data.totals,
    high: judge.high,
    moderate: judge.moderate,
    low: judge.low,
    none: judge.none,
    unknown_level: key.judge === "verdict" ? Math.max(0, data.totals.ok - n) : 0,
    weak_hit_rate: ratio(judge.low + judge.none, n),
    level_mix: judge.level_mix,
  };
  return { ...data, series, totals };
}
