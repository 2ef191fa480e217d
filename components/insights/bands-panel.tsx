"use client";

/**
 * "The numbers behind the levels": percentile bands of top_score and prominence over time for
 * one store and scale (its own request, `GET /api/insights/distributions`, so the counters never
 * wait for it). The series is chosen in the URL (`bands`); loading, error and empty states say why.
 */
import { useMemo } from "react";
import { FilterSelect } from "@/components/filters/filter-controls";
import { panelClassName, panelHeadClassName, panelNoteClassName, panelTitleClassName } from "@/components/ui/panel";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { formatCount } from "@/lib/format";
import { bandSeriesOptions, pickBandSeries, prepareBands } from "@/lib/insights/bands";
import type { InsightBucket } from "@/lib/insights/schema";
import { useInsightDistributions } from "@/lib/queries/use-insights";
import { BandChart } from "./band-chart";
import styles from "./insights.module.css";

export function BandsPanel({
  params,
  bucket,
  selected,
  onSelect,
}: {
  params: URLSearchParams | null;
  bucket: InsightBucket;
  selected: string | undefined;
  onSelect: (key: string | undefined) => void;
}) {
  const answer = useInsightDistributions(params);
  const data = answer.data;
  const options = useMemo(() => (data ? bandSeriesOptions(data) : []), [data]);
  const series = useMemo(() => (data ? pickBandSeries(data, selected) : null), [data, selected]);
  const top = useMemo(() => prepareBands(series, "top_score", data?.bucket ?? bucket), [series, data?.bucket, bucket]);
  const prominence = useMemo(() => prepareBands(series, "prominence", data?.bucket ?? bucket), [series, data?.bucket, bucket]);

  return (
    <section className={panelClassName} aria-label="Score distributions over time" data-testid="bands">
      <div className={panelHeadClassName}>
        <h2 className={panelTitleClassName}>The numbers behind the levels</h2>
        {options.length > 1 ? (
          <FilterSelect
            label="Store and scale"
            value={series?.key ?? ""}
            onChange={(v) => onSelect(v || undefined)}
            options={options.map((o): [string, string] => [o.key, `${o.label} (${formatCount(o.recalls)})`])}
            testId="bands-series"
          />
        ) : series ? (
          <span className={`${styles.small} ${styles.muted}`}>{options[0]?.label}</span>
        ) : null}
      </div>
      {!data && answer.isPending ? (
        <LoadingState>Sorting the scores…</LoadingState>
      ) : answer.isError && !data ? (
        <ErrorState error={answer.error} title="Could not load the score distributions." onRetry={() => void answer.refetch()} />
      ) : (
        <div className={styles.charts}>
          <div>
            <h3 className={panelTitleClassName}>{top.axisLabel[0]!.toUpperCase() + top.axisLabel.slice(1)}</h3>
            <BandChart data={top} testId="bands-top-score" label="Top score percentiles over time" />
          </div>
          <div>
            <h3 className={panelTitleClassName}>Prominence</h3>
            <BandChart data={prominence} testId="bands-prominence" label="Prominence percentiles over time" />
          </div>
        </div>
      )}
      <p className={panelNoteClassName}>
        Per bucket, the middle half of the recalls (p25–p75) and four in five (p10–p90), with the median: where the scores the
        levels are judged from sit, and whether they drift. Raw cosines, hybrid scores and raw BM25 are never mixed in one band.
      </p>
    </section>
  );
}
