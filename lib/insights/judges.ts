/**
 * The level under each judge, and how often it agrees with the selector and with the labels
 * (pure, client-safe). A judge is the reference rules — every recall's `level` — or a threshold
 * profile, over the recalls it judged (`profile_level`; docs/ARCHITECTURE.md "Threshold profiles").
 *
 * The level's verdict is "worth reading" (high or moderate) or "weak" (low or none):
 * - against the selector: it kept something (yes) or kept nothing (no), over the recalls it ran
 *   on that state both kept and dropped;
 * - against a label: something relevant was present (yes) or not (no); unsure labels are left out.
 * Agreement = worth·yes + weak·no, over the four cells; null over nothing.
 */
import { ratio } from "./rates";
import type { Agreement, InsightSeriesPoint, InsightsResponse, JudgeBucket, JudgeInsight } from "./schema";

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

/** Labeled recalls by level: by reference level (`profile_name` null) or by a profile's level. */
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

export function shapeJudges(
  series: readonly Pick<InsightSeriesPoint, "local_start" | "high" | "moderate" | "low" | "none">[],
  rows: readonly JudgeCountRow[],
  labelRows: readonly LabelCountRow[],
): JudgeInsight[] {
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
    // The recalls no profile judged are in the reference judge already (set "level").
    if (!row.profile_name) continue;
    const acc = profileAcc(row.profile_name);
    if (row.set === "judge") {
      acc.counts[row.level] += row.ok;
      acc.selector = addCells(acc.selector, row.level, row.counted - row.kept_none, row.kept_none);
    } else if (row.local_bucket !== null) {
      const bucket = acc.buckets.get(row.local_bucket) ?? zeroCounts();
      bucket[row.level] += row.ok;
      acc.buckets.set(row.local_bucket, bucket);
    }
  }

  for (const row of labelRows) {
    if (!isLevel(row.level) || (row.present !== "yes" && row.present !== "no")) continue;
    const yes = row.present === "yes" ? row.n : 0;
    const no = row.present === "no" ? row.n : 0;
    if (row.by === "level") reference.labels = addCells(reference.labels, row.level, yes, no);
    else if (row.profile_name) {
      const acc = profileAcc(row.profile_name);
      acc.labels = addCells(acc.labels, row.level, yes, no);
    }
  }

  const judge = (profile: string | null, acc: Acc, buckets: JudgeBucket[]): JudgeInsight => {
    const { high, moderate, low, none } = acc.counts;
    const recalls = high + moderate + low + none;
    return {
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

  const referenceSeries = series.map((p) => ({
    local_start: p.local_start,
    high: p.high,
    moderate: p.moderate,
    low: p.low,
    none: p.none,
  }));
  const named = [...profiles.entries()]
    .map(([name, acc]) =>
      judge(
        name,
        acc,
        series.map((p) => ({ local_start: p.local_start, ...(acc.buckets.get(p.local_start) ?? zeroCounts()) })),
      ),
    )
    .filter((j) => j.recalls > 0 || j.labels.total > 0)
    .sort((a, b) => b.recalls - a.recalls || String(a.profile).localeCompare(String(b.profile)));
  return [judge(null, reference, referenceSeries), ...named];
}

/**
 * The answer's series and totals with the level counts of one judge (a profile's name; null is
 * the reference rules, the answer as it is), for the level chart. Null when the answer has no
 * such judge. Levels a judge did not give (failed recalls, recalls it did not judge) are not in its mix.
 */
export function levelDataUnder<D extends Pick<InsightsResponse, "series" | "totals" | "bucket" | "judges">>(
  data: D,
  profile: string | null,
): D | null {
  if (profile === null) return data;
  const judge = data.judges.find((j) => j.profile === profile);
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
      unknown_level: 0,
      weak_hit_rate: ratio(b.low + b.none, n),
    };
  });
  const totals = {
    ...data.totals,
    high: judge.high,
    moderate: judge.moderate,
    low: judge.low,
    none: judge.none,
    unknown_level: 0,
  };
  return { ...data, series, totals };
}
