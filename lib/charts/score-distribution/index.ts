/**
 * The prepare step of the score distribution chart (docs/ARCHITECTURE.md "Charts: prepare, then visualise"): everything the chart draws is decided here, purely and testably: which
 * candidates become points and where, the histogram of the pool, the markers (background mean,
 * top, the confidence thresholds drawn in the score space), the axis domain and ticks, the colours,
 * and the sentences that explain an empty chart or a caveat. The Recharts component only renders.
 *
 * Doctrine kept here:
 * - null is a gap, not zero: a candidate without a value for the chosen score is not drawn (and the
 *   note says how many were left out), never plotted at 0;
 * - the thresholds live in raw-cosine space (prominence bands at `mean_bg × (1 + band)`, absolute
 *   guards, near-duplicate floor); a keyword-only pool gets the z-score view instead;
 * - markers outside the data range widen the domain so they stay visible, within reason (cosines
 *   never leave [-1, 1]); a marker that cannot be shown is flagged `inDomain: false`;
 * - a store that does not expose its pool (`candidates === null`) still gets a chart: the markers
 *   the confidence block allows (background derived from top / (1 + prominence), marked so), the
 *   returned results only where their score is in the axis' space, and a note that says plainly
 *   what is missing (`prepareWithoutPool`).
 *
 * Client-safe: no React, no I/O.
 *
 * The folder, one file per seam: `types`, `palette`, `metrics` (which score, labels, small
 * helpers), `axis`, `histogram`, `markers`, `layout` (lanes, dodge, label rows), `with-pool`,
 * `without-pool`, `describe` (the accessible sentence), `notices` (the recall's notices, named on
 * the chart), `selector-cut` (where the score-gap selector cut, a line on the raw cosine axis). This entry point only dispatches on
 * whether the store exposed its pool.
 */
import { METRIC_LABELS, withPoolDefaultMetric } from "./metrics";
import { withNotices } from "./notices";
import { withSelectorCut } from "./selector-cut";
import type { PreparedScoreDistribution, ScoreDistributionInput, ScoreMetric } from "./types";
import { prepareWithPool } from "./with-pool";
import { noPoolDefaultMetric, prepareWithoutPool } from "./without-pool";

export {
  type ScoreMetric,
  SCORE_METRICS,
  type ChartView,
  type LaneId,
  type PointCategory,
  type PointSymbol,
  type MarkerKind,
  type BandLevel,
  type DistributionPoint,
  type HistogramBin,
  type DistributionMarker,
  type LaneInfo,
  type MetricOption,
  type PointLegendItem,
  type PreparedScoreDistribution,
  type ResultInput,
  type ScoreDistributionInput,
  type ChartCallout,
  type MissingBm25,
} from "./types";
export { NOTICE_STROKE, noticeTitle } from "./notices";
export { POINT_STYLES, BAND_COLORS, MARKER_COLORS, HISTOGRAM_COLOR } from "./palette";
export { METRIC_LABELS, missingMetricReason } from "./metrics";
export { niceStep, niceDomain } from "./axis";
export { HISTOGRAM_MIN_POOL, histogramBins } from "./histogram";
export { ASSUMED_PLOT_PX, MAX_LABEL_ROWS, relayoutMarkerLabels } from "./layout";
export { NO_POOL_NOTE, NO_POOL_PHRASE } from "./without-pool";

/**
 * Prepares the score distribution of one recall for the chart.
 *
 * When the store does not expose its candidate pool (`candidates === null`), the chart draws what
 * the confidence block and the returned results allow instead (see `prepareWithoutPool`).
 *
 * @param view the recall's candidates and confidence block (and, optionally, its request, whose
 *   search mode makes the reasons more precise; its results and degraded flag, used when the pool
 *   is not exposed)
 * @param metric the score to put on the x axis
 */
export function prepareScoreDistribution(view: ScoreDistributionInput, metric: ScoreMetric): PreparedScoreDistribution {
  const ariaPrefix = `Score distribution (${METRIC_LABELS[metric]})`;
  const candidates = view.candidates;
  const prepared =
    candidates === null
      ? prepareWithoutPool(view, metric, ariaPrefix)
      : prepareWithPool({ ...view, candidates }, metric, ariaPrefix);
  return withSelectorCut(withNotices(prepared, view.notices), view.selector_trace);
}

/**
 * The metric a chart should open on: raw cosine when any candidate has one; for a keyword-only
 * pool the score its z-score came from; otherwise the first metric with values. Without the pool:
 * raw cosine for a semantic confidence block, else the keyword-only block's own axis.
 */
export function defaultScoreMetric(input: ScoreDistributionInput): ScoreMetric {
  const candidates = input.candidates;
  if (candidates === null) return noPoolDefaultMetric(input);
  return withPoolDefaultMetric({ ...input, candidates });
}
