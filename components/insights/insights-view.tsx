"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState, useSyncExternalStore } from "react";
import { FilterSelect } from "@/components/filters/filter-controls";
import { SavedViews } from "@/components/filters/saved-views";
import { Button, buttonClassName } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import {
  pageStackClassName,
  panelClassName,
  panelHeadClassName,
  panelNoteClassName,
  panelTitleClassName,
} from "@/components/ui/panel";
import { ApiErrorText, EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { prepareLevelChart, prepareSelectorChart } from "@/lib/insights/chart";
import { bucketWords } from "@/lib/insights/format";
import {
  findJudge,
  judgeKeyOf,
  judgeMeaning,
  judgeName,
  judgeParamOf,
  judgeShortName,
  keyOfJudge,
  levelDataUnder,
  levelMixTitle,
  VERDICT_JUDGE,
  type JudgeKey,
} from "@/lib/insights/judges";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { InsightsResponse } from "@/lib/insights/schema";
import { useHistoryFacets } from "@/lib/queries/use-history";
import { useInsights, useLogExtent } from "@/lib/queries/use-insights";
import { BandsPanel } from "./bands-panel";
import { Disagreements } from "./disagreements";
import { LevelChart, SelectorChart } from "./insight-charts";
import { HeadlineStats, LabelStats } from "./insight-stats";
import { InsightsFilterBar } from "./insights-filters";
import {
  allowedBuckets,
  DEFAULT_RANGE,
  defaultBucket,
  fittingPreset,
  insightsApiParams,
  rangeImplicit,
  readInsightsUrl,
  writeInsightsUrl,
  type InsightsUrlState,
} from "./insights-url";
import styles from "./insights.module.css";
import { JudgesPanel } from "./judges-panel";
import { DroppedTable, ReasonTable } from "./reason-dropped-tables";
import { BucketTable, ModelTable, StoreTable } from "./stats-tables";

const noSubscribe = () => () => {};

/** The browser's IANA zone; null while rendering on the server (the query waits for it). */
function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(
    noSubscribe,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    () => null,
  );
}

function rangeText(data: InsightsResponse): string {
  const format = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: data.tz });
  return `${format.format(new Date(data.from))} – ${format.format(new Date(data.to))}`;
}

function scopeOf(data: InsightsResponse): DrillScope {
  return {
    from: new Date(data.from),
    to: new Date(data.to),
    store: data.filters.store,
    selector_model: data.filters.selector_model,
    verdict: data.filters.verdict,
    level: data.filters.level,
    profile_level: data.filters.profile_level,
    profile: data.filters.profile,
    sources: data.filters.sources,
  };
}

/**
 * The answer with the level counts of the judge a link names, and that judge; the store's verdict
 * when the answer lacks it (an old link naming a profile that judged nothing in this range).
 */
function judgedData(data: InsightsResponse | undefined, key: JudgeKey): { judged: InsightsResponse | null; judge: JudgeKey } {
  if (!data) return { judged: null, judge: key };
  const named = levelDataUnder(data, key);
  if (named) return { judged: named, judge: key };
  const verdict = levelDataUnder(data, VERDICT_JUDGE);
  return verdict ? { judged: verdict, judge: VERDICT_JUDGE } : { judged: data, judge: { judge: "reference" } };
}

/** The Insights page's interactive part: filters kept in the URL, headline numbers, charts, tables. */
export function InsightsView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const url = useMemo(() => readInsightsUrl(searchParams), [searchParams]);
  // A preset is anchored when the URL changes (or Refresh is pressed), so the query key stays
  // put while the person reads.
  const [refreshed, setRefreshed] = useState(0);
  // eslint-disable-next-line react-hooks/purity, react-hooks/exhaustive-deps -- a preset ("last 7 days") is anchored at the clock once per URL change or Refresh press: those two are the memo's keys on purpose, not inputs it reads
  const anchor = useMemo(() => Date.now(), [searchParams, refreshed]);
  // With no range in the URL the page opens on one that fits the log (fittingPreset), once the
  // first recall's time is known; until then nothing is fetched, so the 30 days never flash.
  const extent = useLogExtent();
  const implicit = rangeImplicit(searchParams);
  const fitted = implicit && url.invalid === null ? fittingPreset(extent.data?.first, anchor) : DEFAULT_RANGE;
  const waitingForExtent = implicit && extent.isPending;
  const state: InsightsUrlState = useMemo(() => {
    const { invalid: _invalid, ...rest } = url;
    return implicit ? { ...rest, range: fitted } : rest;
  }, [url, implicit, fitted]);
  const browserTz = useBrowserTimeZone();

  const bucket = state.bucket ?? defaultBucket(state, anchor);
  const params = useMemo(
    () => (url.invalid !== null || browserTz === null || waitingForExtent ? null : insightsApiParams(state, anchor, browserTz)),
    [url.invalid, browserTz, state, anchor, waitingForExtent],
  );
  const insights = useInsights(params);
  const data = insights.data;
  const tz = state.tz ?? browserTz;

  const navigate = useCallback(
    (next: InsightsUrlState) => {
      let query = writeInsightsUrl(next);
      // "Last 30 days" is written out when the page would otherwise open on a shorter fitted range.
      if (next.range === DEFAULT_RANGE && fitted !== DEFAULT_RANGE && !new URLSearchParams(query).has("range")) {
        query = query ? `range=${DEFAULT_RANGE}&${query}` : `range=${DEFAULT_RANGE}`;
      }
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname, fitted],
  );
  const reset = () => router.replace(pathname, { scroll: false });

  // What the pickers offer: History's facets (stores configured or logged, models and profiles
  // in the log), plus whatever the link names.
  const facets = useHistoryFacets();
  const storeOptions = useMemo(() => {
    const names = new Set((facets.data?.stores ?? []).map((s) => s.name));
    if (state.store) names.add(state.store);
    return [...names].sort();
  }, [facets.data, state.store]);
  const modelOptions = useMemo(() => {
    const names = new Set(facets.data?.selector_models ?? []);
    if (state.selector_model) names.add(state.selector_model);
    return [...names].sort();
  }, [facets.data, state.selector_model]);
  const profileOptions = useMemo(
    () => [
      ...new Set([...(facets.data?.profiles ?? []), ...(data?.judges ?? []).flatMap((j) => (j.profile ? [j.profile] : []))]),
    ],
    [facets.data, data],
  );

  const selectorChart = useMemo(() => (data ? prepareSelectorChart(data) : null), [data]);
  // The level chart (and the bucket table) under the chosen judge: the store's verdict unless the
  // link names the reference rules or a profile the answer has.
  const { judged, judge } = useMemo(() => judgedData(data, judgeKeyOf(state.judge)), [data, state.judge]);
  const levelChart = useMemo(() => (judged ? prepareLevelChart(judged) : null), [judged]);
  const scope = useMemo(() => (data ? scopeOf(data) : null), [data]);
  const openBucket = useCallback(
    (index: number) => {
      const point = data?.series[index];
      if (data && point) router.push(drill.bucket(scopeOf(data), point.start, point.end));
    },
    [data, router],
  );

  const stale = insights.isPlaceholderData || (insights.isFetching && !insights.isPending);
  const filtered = Boolean(
    state.store || state.selector_model || state.verdict || state.level || state.profile_level || state.profile,
  );

  return (
    <div className={pageStackClassName} data-testid="insights-view">
      <section className={panelClassName} aria-label="Range and filters">
        <InsightsFilterBar
          state={state}
          onChange={navigate}
          bucket={bucket}
          allowedBuckets={allowedBuckets(state, anchor)}
          stores={storeOptions}
          models={modelOptions}
          profiles={profileOptions}
          browserTz={browserTz}
          onRefresh={() => setRefreshed((n) => n + 1)}
          refreshing={insights.isFetching}
        />
        <SavedViews page="insights" params={writeInsightsUrl(state)} />
        <p className={styles.scopeLine} data-testid="insights-scope" aria-live="polite">
          {data ? (
            <>
              <span>
                <strong>{rangeText(data)}</strong>
              </span>
              <span data-testid="insights-tz">
                {bucketWords(data.bucket)} buckets in <strong>{data.tz}</strong>
                {state.tz ? "" : " (your browser’s time zone)"}
              </span>
              {data.filters.store ? <span>store {data.filters.store}</span> : null}
              {data.filters.selector_model ? (
                <span>selector model {data.filters.selector_model} (only recalls it ran on)</span>
              ) : null}
              {data.filters.verdict ? <span>store&apos;s verdict {data.filters.verdict.join(" or ")}</span> : null}
              {data.filters.level ? <span>reference level {data.filters.level.join(" or ")}</span> : null}
              {data.filters.profile ? <span>judged by profile {data.filters.profile}</span> : null}
              {data.filters.profile_level ? <span>profile level {data.filters.profile_level.join(" or ")}</span> : null}
            </>
          ) : tz ? (
            <span data-testid="insights-tz">Buckets in {tz}</span>
          ) : (
            <span>Reading your time zone…</span>
          )}
        </p>
        <p className={panelNoteClassName}>
          Failed recalls (the store errored) count in volume but not in the level mix or the selector rates. Rates over few
          recalls are drawn hollow; every point’s tooltip gives its counts.
        </p>
      </section>

      {url.invalid !== null ? (
        <Notice
          tone="error"
          title="This link’s settings cannot be read."
          data-testid="insights-error"
          action={
            <Button size="small" onClick={reset}>
              Start over
            </Button>
          }
        >
          {url.invalid}
        </Notice>
      ) : !data && (insights.isPending || params === null) ? (
        <LoadingState className="panel" data-testid="insights-loading">
          Adding up the recalls…
        </LoadingState>
      ) : insights.isError && !data ? (
        <ErrorState
          error={insights.error}
          title="Could not load the insights."
          onRetry={() => void insights.refetch()}
          retryLabel="Try again"
          data-testid="insights-error"
        />
      ) : data && scope && selectorChart && levelChart ? (
        <div className={`${pageStackClassName} ${stale ? styles.stale : ""}`} aria-busy={stale}>
          {insights.isError ? (
            <Notice
              tone="error"
              action={
                <Button size="small" onClick={() => void insights.refetch()}>
                  Try again
                </Button>
              }
            >
              Could not refresh: <ApiErrorText error={insights.error} />
            </Notice>
          ) : null}
          {data.totals.recalls === 0 ? (
            <section className="panel" data-testid="insights-empty">
              <EmptyState title={`No recalls in this range${filtered ? " for these filters" : ""}`} className={styles.empty}>
                <p>
                  Nothing was logged between {rangeText(data)} ({data.tz})
                  {data.filters.store ? ` in store ${data.filters.store}` : ""}
                  {data.filters.selector_model ? ` with selector model ${data.filters.selector_model}` : ""}
                  {filtered && !data.filters.store && !data.filters.selector_model ? " for these filters" : ""}. Widen the time
                  range
                  {filtered ? ", clear the filters," : ""} or run some recalls in the console.
                </p>
                <div className={styles.emptyActions}>
                  {filtered || state.range !== DEFAULT_RANGE ? <Button onClick={reset}>All recalls, default range</Button> : null}
                  <Link href="/" className={buttonClassName({ variant: "primary" })}>
                    Open the console
                  </Link>
                </div>
              </EmptyState>
            </section>
          ) : (
            <>
              <HeadlineStats
                totals={data.totals}
                verdict={findJudge(data.judges, VERDICT_JUDGE)}
                scope={scope}
                sources={data.filters.sources}
              />
              <LabelStats labels={data.labels} />
              <div className={styles.charts}>
                <section className={panelClassName} aria-label="Selector over time">
                  <div className={panelHeadClassName}>
                    <h2 className={panelTitleClassName}>Selector drop rate</h2>
                    <span className={`${styles.small} ${styles.muted}`}>Click a bucket to open its recalls</span>
                  </div>
                  <SelectorChart data={selectorChart} onOpenBucket={openBucket} />
                  {selectorChart.note ? <p className={panelNoteClassName}>{selectorChart.note}</p> : null}
                </section>
                <section className={panelClassName} aria-label="Confidence levels over time">
                  <div className={panelHeadClassName}>
                    <h2 className={panelTitleClassName}>{levelMixTitle(judge)}</h2>
                    {data.judges.length > 1 ? (
                      <FilterSelect
                        label="Judged by"
                        value={judgeParamOf(judge) ?? ""}
                        onChange={(v) => navigate({ ...state, judge: v || undefined })}
                        options={data.judges.map((j): [string, string] => [
                          judgeParamOf(keyOfJudge(j)) ?? "",
                          j.judge === "reference" ? "Reference rules (what the agent saw)" : judgeName(keyOfJudge(j)),
                        ])}
                        testId="level-judge"
                      />
                    ) : (
                      <span className={`${styles.small} ${styles.muted}`}>Recalls per level (right axis)</span>
                    )}
                  </div>
                  <LevelChart
                    data={levelChart}
                    onOpenBucket={openBucket}
                    title={levelMixTitle(judge)}
                    judge={judgeShortName(judge)}
                  />
                  <p className={panelNoteClassName} data-testid="level-judge-note">
                    {judgeMeaning(judge)}
                    {levelChart.note ? ` ${levelChart.note}` : ""}
                  </p>
                </section>
              </div>
              <JudgesPanel judges={data.judges} scope={scope} />
              <BandsPanel
                params={params}
                bucket={bucket}
                selected={state.bands}
                onSelect={(key) => navigate({ ...state, bands: key })}
              />
              <section className={panelClassName} aria-label="Buckets as a table">
                <BucketTable data={judged ?? data} scope={scope} judge={judge} />
              </section>
              <StoreTable rows={data.by_store} scope={scope} />
              <div className={styles.pair}>
                <ModelTable rows={data.by_model} scope={scope} />
                <ReasonTable rows={data.not_applied_reasons} totals={data.totals} scope={scope} />
              </div>
              <DroppedTable data={data.most_dropped} scope={scope} />
              <Disagreements data={data.disagreements} totals={data.totals} scope={scope} />
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
