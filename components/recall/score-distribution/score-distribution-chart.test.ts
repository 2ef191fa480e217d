import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { prepareScoreDistribution, type ScoreDistributionInput } from "@/lib/charts/score-distribution";
import { confidenceFromWire } from "@/lib/recall/wire";
import { ScoreDistributionChart } from "./score-distribution-chart";

// Server-rendered markup of the chart for a recall whose store does not expose its pool: the
// testids the e2e tests and the legend rely on, and the note that says what is missing.

const S1 = confidenceFromWire(
  {
    level: "high",
    top_score: 0.919,
    prominence: 0.559,
    relative_margin: 4.989,
    result_count: 8,
    rationale:
      "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
  },
  { searchMode: "semantic" },
);

function render(input: ScoreDistributionInput, metric: "raw_cosine" | "bm25" | "hybrid" = "raw_cosine"): string {
  const data = prepareScoreDistribution(input, metric);
  return renderToStaticMarkup(createElement(ScoreDistributionChart, { data, onMetricChange: () => {} }));
}

/** The text of the element carrying `data-testid="<id>"` (first one), tags stripped. */
function textOf(html: string, id: string): string {
  const at = html.indexOf(`data-testid="${id}"`);
  if (at === -1) return "";
  const open = html.indexOf(">", at);
  const close = html.indexOf("</p>", open);
  return html.slice(open + 1, close).replace(/<[^>]+>/g, "");
}

describe("ScoreDistributionChart for a store without its pool", () => {
  it("semantic mode: the markers' testids, the derived label and the note", () => {
    const html = render({
      candidates: null,
      confidence: S1,
      request: { search_mode: "semantic" },
      results: [
        { memory_id: "r1", summary: "one", score: 0.919 },
        { memory_id: "r2", summary: "two", score: 0.6 },
      ],
    });
    expect(html).toContain('data-testid="score-distribution"');
    expect(html).toContain('data-pool-exposed="false"');
    expect(html).toContain('data-view="cosine"');
    for (const kind of ["top", "background_mean", "prominence_band", "absolute_guard", "near_duplicate"]) {
      expect(html).toContain(`data-testid="marker-${kind}"`);
    }
    expect(html).toContain("background mean ≈ 0.589, derived from top / (1 + prominence)");
    expect(html).toContain('data-testid="points-returned"');
    expect(textOf(html, "chart-note")).toMatch(/does not expose its candidate pool/);
    expect(html).not.toContain('data-testid="chart-empty"');
  });

  it("hybrid mode: the cosine view has markers only; the Hybrid toggle is enabled", () => {
    const input: ScoreDistributionInput = {
      candidates: null,
      confidence: S1,
      request: { search_mode: "hybrid" },
      results: [{ memory_id: "r1", summary: "one", score: 1 }],
    };
    const html = render(input);
    expect(html).toContain('data-testid="marker-top"');
    expect(html).not.toContain('data-testid="points-returned"');
    expect(html).toMatch(/data-metric="hybrid"[^>]*aria-pressed="false"/);
    expect(html).not.toMatch(/data-metric="hybrid"[^>]*disabled/);
    expect(textOf(html, "chart-note")).toMatch(/switch to Hybrid/);
    const hybrid = render(input, "hybrid");
    expect(hybrid).toContain('data-view="score"');
    expect(hybrid).not.toContain('data-testid="marker-');
    expect(textOf(hybrid, "chart-note")).toMatch(/does not expose its candidate pool/);
  });

  it("nothing to draw: the empty state still says the pool is not exposed", () => {
    const html = render({ candidates: null, confidence: null });
    expect(html).toContain('data-testid="chart-empty"');
    expect(html).toMatch(/does not expose its candidate pool/);
  });
});
