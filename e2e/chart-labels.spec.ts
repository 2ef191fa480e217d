import type { APIRequestContext } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/fixtures";
import { expectNoLabelOverlap } from "./support/label-boxes";

/**
 * No chart label runs into another, on a phone (390 × 844) and a laptop (1366 × 900): the
 * evaluation report's two distributions (thresholds labelled above the plot; two thresholds at
 * one value share a label) and its ROC curve, and Insights' series and percentile-band charts
 * (hour ticks thinned for the width), and the compare-recalls chart's markers. The label boxes are measured in the browser
 * (e2e/support/label-boxes.ts). The run uses a profile like the fitted one the issue-32 walk met:
 * both cosine guards at 0.40, prominence bands at −0.12 and 0.00.
 */

interface DemoQuery {
  query: string;
  kind: string;
  relevant: string[];
}
const demo = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as DemoQuery[];
const present = demo.filter((q) => q.relevant.length > 0).slice(0, 6);
const absent = demo.filter((q) => q.relevant.length === 0).slice(0, 4);

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;

interface Seeded {
  runId: string;
  /** Two console recalls of one query (k = 5, then k = 10), for the compare page. */
  recallA: string;
  recallB: string;
}

let seeded: Promise<Seeded> | null = null;

async function postJson(request: APIRequestContext, url: string, data: unknown) {
  const response = await request.post(url, { data, timeout: 90_000 });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** One finished run of ten demo queries (present and absent) judged by the fitted-like profile. */
function seed(request: APIRequestContext): Promise<Seeded> {
  seeded ??= (async () => {
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const profile = `e2e-labels-${stamp}`;
    await postJson(request, "/api/profiles", {
      name: profile,
      thresholds: { abs_low_cosine: 0.4, abs_moderate_cosine: 0.4, moderate_prominence: 0, low_prominence: -0.12 },
      description: "made by e2e/chart-labels.spec.ts",
    });
    const set = await postJson(request, "/api/datasets", {
      name: `e2e labels ${stamp}`,
      items: [...present, ...absent].map((q) => ({ query: q.query, relevant: q.relevant, kind: q.kind })),
    });
    const run = await postJson(request, "/api/eval-runs", { dataset_id: set.id, k: 5, profile });
    await expect
      .poll(async () => ((await (await request.get(`/api/eval-runs/${run.id}`)).json()) as { status: string }).status, {
        timeout: 150_000,
        intervals: [500, 1000, 2000],
      })
      .toBe("done");
    // Console recalls too, so Insights (which leaves evaluation traffic out by default) has them to draw.
    const a = await postJson(request, "/api/recall", { query: `what is Maya allergic to? ${stamp}`, k: 5, selector: "gap" });
    const b = await postJson(request, "/api/recall", { query: `what is Maya allergic to? ${stamp}`, k: 10, selector: "gap" });
    return { runId: run.id as string, recallA: a.id as string, recallB: b.id as string };
  })();
  return seeded;
}

for (const size of SIZES) {
  test.describe(`at ${size.width} × ${size.height} (${size.name})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the evaluation report's charts: thresholds apart, one label for two at one value", async ({ page, request }) => {
      test.setTimeout(240_000);
      const { runId } = await seed(request);
      await page.goto(`/evaluate/runs/${runId}`);
      await expect(page.getByTestId("run-status")).toHaveText("done", { timeout: 30_000 });

      const top = page.getByTestId("distribution-top_score");
      await top.scrollIntoViewIfNeeded();
      await expect(top.getByTestId("threshold-label")).toHaveText(["low guard / moderate guard 0.40", "strong cosine 0.85"]);
      await expectNoLabelOverlap(top, "top-score distribution");

      const prominence = page.getByTestId("distribution-prominence");
      await prominence.scrollIntoViewIfNeeded();
      await expect(prominence.getByTestId("threshold-label")).toHaveText(["low -0.12", "moderate 0.00", "high 0.40"]);
      await expectNoLabelOverlap(prominence, "prominence distribution");

      const roc = page.getByTestId("roc-chart");
      await roc.scrollIntoViewIfNeeded();
      await expectNoLabelOverlap(roc, "ROC chart");
    });

    test("two recalls compared: the markers of both sides apart", async ({ page, request }) => {
      test.setTimeout(240_000);
      const { recallA, recallB } = await seed(request);
      await page.goto(`/recalls/compare?a=${recallA}&b=${recallB}`);
      const chart = page.getByTestId("compare-chart");
      await chart.scrollIntoViewIfNeeded();
      // One query at k = 5 and k = 10: the tops usually coincide and then share one label; either way each is named once.
      await expect(chart.getByTestId("threshold-label").filter({ hasText: "A top" })).toHaveCount(1);
      await expect(chart.getByTestId("threshold-label").filter({ hasText: "B top" })).toHaveCount(1);
      await expectNoLabelOverlap(chart, "compare chart");
    });

    test("Insights' charts: hour ticks apart", async ({ page, request }) => {
      test.setTimeout(240_000);
      await seed(request);
      await page.goto("/insights?range=24h&bucket=hour");
      await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
      for (const id of ["selector-chart", "level-chart", "bands-top-score", "bands-prominence"]) {
        const chart = page.getByTestId(id);
        await chart.scrollIntoViewIfNeeded();
        // The percentile bands draw the series with the most recalls, which may lack a prominence (a keyword-only
        // pool): an empty band chart has no labels to check. The two series charts always draw here.
        if (id.startsWith("bands-") && (await chart.getByTestId("chart-empty").count()) > 0) continue;
        const found = await expectNoLabelOverlap(chart, id);
        // A day of hours: some ticks are shown, and on a phone not all 24.
        const ticks = await chart.locator(".recharts-xAxis-tick-labels text").count();
        expect(ticks, `${id}: x ticks`).toBeGreaterThan(1);
        if (size.name === "phone") expect(ticks, `${id}: x ticks on a phone`).toBeLessThanOrEqual(8);
        expect(found.texts).toBeGreaterThan(ticks);
      }
    });
  });
}
