/**
 * Rows → the answer (pure): the grouped counters, the lists and the judges' level mixes with
 * their agreement rates. Exported for the route (index.ts) and the tests.
 */
import { selectorReasonKind } from "@/lib/recall/selector-reasons";
import { filtersOf } from "./errors";
import { groupSetOf, type BucketRow, type GroupRow } from "./groups";
import { LABEL_BY_LEVEL, shapeLabels, type DisagreementRow, type DroppedRow, type LabelAgreementRow } from "./lists";
import { shapeJudges, verdictCounts, type JudgeCountRow, type LabelCountRow } from "../../judges";
import { COUNTER_KEYS, ratio, sumsFromRow, toStats, ZERO_SUMS, type CounterSums } from "../../rates";
import {
  INSIGHT_LIST_SIZE,
  MAX_INSIGHT_BUCKETS,
  type DisagreementItem,
  type DroppedMemory,
  type InsightsQuery,
  type InsightsResponse,
  type InsightSeriesPoint,
  type ModelInsight,
  type ReasonInsight,
  type SeriesMarker,
  type StoreInsight,
} from "../../schema";

function addSums(a: CounterSums, b: CounterSums): CounterSums {
  const out = { ...a };
  for (const key of COUNTER_KEYS) out[key] = a[key] + b[key];
  return out;
}

/**
 * Where the selector changed: each (model, prompt version) tried for the first time after the
 * range's first bucket with a selector at work. A pair already in use in that first bucket is
 * the starting setup, not a change.
 */
export function seriesMarkers(
  series: readonly Pick<InsightSeriesPoint, "local_start" | "start" | "applied" | "selector_failed">[],
  uses: readonly { model: string; prompt: string; local_bucket: string }[],
): SeriesMarker[] {
  const first = series.find((p) => p.applied + p.selector_failed > 0);
  if (!first) return [];
  const ordered = [...uses].sort(
    (a, b) => a.local_bucket.localeCompare(b.local_bucket) || a.model.localeCompare(b.model) || a.prompt.localeCompare(b.prompt),
  );
  const seenModels = new Set<string>();
  const markers: SeriesMarker[] = [];
  for (const u of ordered) {
    const known = seenModels.has(u.model);
    seenModels.add(u.model);
    // What was in use in the first active bucket is the starting setup, not a change.
    if (u.local_bucket <= first.local_start) continue;
    const point = series.find((p) => p.local_start === u.local_bucket);
    const kind = known ? "prompt" : "model";
    markers.push({
      local_start: u.local_bucket,
      start: point?.start ?? u.local_bucket,
      kind,
      selector_model: u.model,
      prompt_version: u.prompt || null,
      label:
        kind === "prompt"
          ? `${u.model}: prompt ${u.prompt || "unversioned"}`
          : `${u.model}${u.prompt ? ` (prompt ${u.prompt})` : ""} first used`,
    });
  }
  return markers;
}

export function shapeInsights(
  q: InsightsQuery,
  buckets: readonly BucketRow[],
  groups: readonly GroupRow[],
  dropped: readonly DroppedRow[],
  lists: readonly DisagreementRow[],
  labelRows: readonly LabelAgreementRow[] = [],
): InsightsResponse {
  const byBucket = new Map<string, CounterSums>();
  const stores: Omit<StoreInsight, "verdict">[] = [];
  // Per store and per model, the level each recall's store judged it with: their verdict columns.
  const storeVerdicts = new Map<string, { level: string | null; ok: number }[]>();
  const modelVerdicts = new Map<string, { level: string | null; ok: number }[]>();
  const push = (map: Map<string, { level: string | null; ok: number }[]>, key: string, level: string | null, ok: number) => {
    const list = map.get(key) ?? [];
    list.push({ level, ok });
    map.set(key, list);
  };
  // Per model, what it ran on (applied) and what it failed on (not applied, kind failed).
  const modelSums = new Map<string, CounterSums>();
  const reasons = new Map<string | null, number>();
  // Per (model, prompt version): the first bucket it was tried in, for the series markers.
  const firstUse = new Map<string, { model: string; prompt: string; local_bucket: string }>();
  let totals: CounterSums = ZERO_SUMS;

  // Per judge ("" = the reference rules over the recalls no profile judged): counts per level.
  const judgeRows: JudgeCountRow[] = [];

  for (const row of groups) {
    const sums = sumsFromRow(row);
    switch (groupSetOf(Number(row.g))) {
      case "marker":
        if (row.local_bucket !== null && row.model && sums.applied + sums.selector_failed > 0) {
          const key = `${row.model}\u0000${row.prompt ?? ""}`;
          const seen = firstUse.get(key);
          if (!seen || row.local_bucket < seen.local_bucket)
            firstUse.set(key, { model: row.model, prompt: row.prompt ?? "", local_bucket: row.local_bucket });
        }
        break;
      case "bucket":
        if (row.local_bucket !== null) byBucket.set(row.local_bucket, sums);
        break;
      case "store":
        if (row.store !== null) stores.push({ store: row.store, ...toStats(sums) });
        break;
      case "model": {
        // A model counts where it ran or tried: applied rows, and not-applied rows it failed on.
        const key = row.model ?? "";
        modelSums.set(key, addSums(modelSums.get(key) ?? ZERO_SUMS, sums));
        break;
      }
      case "reason":
        if (row.applied_key === false) {
          const notApplied = sums.recalls - sums.failed - sums.applied;
          if (notApplied > 0) {
            const key = row.reason || null;
            reasons.set(key, (reasons.get(key) ?? 0) + notApplied);
          }
        }
        break;
      case "total":
        totals = sums;
        break;
      case "storeJudge":
        if (row.store !== null) push(storeVerdicts, row.store, row.judged_level, sums.recalls - sums.failed);
        break;
      case "modelJudge":
        // Summed over applied and not, as the model's own counters are.
        push(modelVerdicts, row.model ?? "", row.judged_level, sums.recalls - sums.failed);
        break;
      case "level":
      case "judge":
      case "judgeBucket": {
        const set = groupSetOf(Number(row.g)) as JudgeCountRow["set"];
        judgeRows.push({
          set,
          level: set === "level" ? row.level : row.judged_level,
          profile_name: row.profile_name,
          local_bucket: row.local_bucket,
          ok: sums.recalls - sums.failed,
          counted: sums.counted,
          kept_none: sums.kept_none,
        });
        break;
      }
      default:
        break;
    }
  }

  const from = q.from.getTime();
  const to = q.to.getTime();
  const series: InsightSeriesPoint[] = buckets.map((b) => {
    const start = new Date(b.start);
    const end = new Date(b.end);
    return {
      start: start.toISOString(),
      end: end.toISOString(),
      local_start: b.local_start,
      partial: start.getTime() < from || end.getTime() > to,
      ...toStats(byBucket.get(b.local_start) ?? ZERO_SUMS),
    };
  });

  const totalStats = toStats(totals);
  const notApplied = totalStats.not_applied;
  const reasonList: ReasonInsight[] = [...reasons.entries()]
    .map(([reason, recalls]) => ({ reason, kind: selectorReasonKind(reason), recalls, share: ratio(recalls, notApplied) ?? 0 }))
    .sort((a, b) => b.recalls - a.recalls || String(a.reason).localeCompare(String(b.reason)));

  stores.sort((a, b) => b.recalls - a.recalls || a.store.localeCompare(b.store));
  const byStore: StoreInsight[] = stores.map((s) => ({ ...s, verdict: verdictCounts(storeVerdicts.get(s.store) ?? []) }));
  const models: ModelInsight[] = [...modelSums.entries()]
    .map(([model, sums]) => ({
      selector_model: model || null,
      ...toStats(sums),
      verdict: verdictCounts(modelVerdicts.get(model) ?? []),
    }))
    .filter((m) => m.tried > 0);
  models.sort((a, b) => b.tried - a.tried || String(a.selector_model).localeCompare(String(b.selector_model)));

  const items: DroppedMemory[] = dropped.map((row) => {
    const d = Number(row.dropped);
    const k = Number(row.kept);
    return {
      store: row.store,
      memory_id: row.memory_id,
      summary: row.summary ?? null,
      dropped: d,
      kept: k,
      drop_share: ratio(d, d + k),
    };
  });

  const list = (kind: DisagreementRow["kind"]): DisagreementItem[] =>
    lists
      .filter((row) => row.kind === kind)
      .map((row) => ({
        id: row.id,
        created_at: new Date(row.created_at).toISOString(),
        store: row.store,
        query: row.query,
        level: row.level,
        top_score: row.top_score === null ? null : Number(row.top_score),
        selector_model: row.selector_model,
        kept: row.kept === null ? null : Number(row.kept),
        dropped: row.dropped === null ? null : Number(row.dropped),
        top_memory_id: row.top_memory_id,
        top_summary: row.top_summary,
      }));

  return {
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    bucket: q.bucket,
    tz: q.tz,
    filters: filtersOf(q),
    totals: totalStats,
    series,
    by_store: byStore,
    by_model: models,
    not_applied_reasons: reasonList,
    markers: seriesMarkers(series, [...firstUse.values()]),
    most_dropped: { items, unlisted_drops: Math.max(0, totals.dropped - totals.listed_dropped) },
    disagreements: {
      top_dropped: {
        total: totals.high_top_dropped + totals.moderate_top_dropped + totals.low_top_dropped + totals.none_top_dropped,
        items: list("top_dropped"),
      },
      weak_kept_all: { total: totals.weak_kept_all, items: list("weak_kept_all") },
    },
    labels: shapeLabels(undefined),
    judges: shapeJudges(
      series,
      judgeRows,
      labelRows.map((row): LabelCountRow => ({
        by: Number(row.g) === LABEL_BY_LEVEL ? "level" : "judge",
        level: Number(row.g) === LABEL_BY_LEVEL ? row.level : row.judged_level,
        profile_name: row.profile_name,
        present: row.present,
        n: Number(row.n),
      })),
    ),
    limits: { max_buckets: MAX_INSIGHT_BUCKETS, list_size: INSIGHT_LIST_SIZE },
  };
}
