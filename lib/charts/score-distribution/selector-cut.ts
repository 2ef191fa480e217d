import { formatScore } from "@/lib/format";
import { relayoutMarkerLabels, ASSUMED_PLOT_PX } from "./layout";
import { finishMarker } from "./markers";
import type { PreparedScoreDistribution, ScoreDistributionInput } from "./types";

// ---------------------------------------------------------------------------------------------
// The score-gap selector's cut (lib/selectors/score-gap.ts): it ranks the page by raw cosine and
// cuts at the largest relative drop, so its cut is a position on the raw cosine axis — drawn
// there as a line between the lowest kept and the highest dropped result. On another axis it has
// no place, and the note says where to see it.

/** Adds the score gap's cut line (or a note saying which axis shows it) when the trace has one. */
export function withSelectorCut(
  prepared: PreparedScoreDistribution,
  trace: ScoreDistributionInput["selector_trace"],
): PreparedScoreDistribution {
  const cut = trace?.score_gap?.cut;
  if (!cut || prepared.status === "empty") return prepared;
  const words =
    `the score-gap selector cut between rank ${cut.above.rank} (raw cosine ${formatScore(cut.above.raw_cosine)}, kept) ` +
    `and rank ${cut.below.rank} (${formatScore(cut.below.raw_cosine)}, dropped): a ${Math.round(cut.relative_drop * 100)} % drop`;
  if (prepared.view !== "cosine" || prepared.plottedMetric !== "raw_cosine") {
    const note = `The score-gap selector cuts on raw cosine, not on this axis: switch to Raw cosine to see its cut.`;
    const notes = [...prepared.notes, note];
    return { ...prepared, notes, note: notes.join(" ") };
  }
  const x = (cut.above.raw_cosine + cut.below.raw_cosine) / 2;
  const marker = {
    ...finishMarker({
      id: "selector_cut",
      kind: "selector_cut",
      x,
      label: `selector cut: ${words}`,
      shortLabel: "selector cut",
    }),
    inDomain: x >= prepared.domain[0] && x <= prepared.domain[1],
  };
  return relayoutMarkerLabels(
    { ...prepared, markers: [...prepared.markers, marker], ariaLabel: `${prepared.ariaLabel} The line marks where ${words}.` },
    ASSUMED_PLOT_PX,
  );
}
