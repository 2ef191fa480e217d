import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Insights: recalls ingested with chosen selector blocks under a store name of this run only
 * (the server's database is shared by every spec), so the expected rates are exact and computed
 * here; the page shows them in the browser's time zone, and its rows drill down to the recalls
 * behind them in History. A second test runs real recalls with the score-gap selector.
 */

test.use({ timezoneId: "America/New_York" });
// A cold server answers its first Insights request only once the demo corpus has loaded (under a
// minute idle, more on a loaded machine): the first wait for the page's numbers is generous.
test.describe.configure({ timeout: 300_000 });
const FIRST_ANSWER = { timeout: 180_000 };

interface Planned {
  name: string;
  at: string;
  level: "high" | "moderate" | "low" | "none";
  selector: Record<string, unknown>;
  page: string[];
}

// New York is UTC−5 in January: B (03:30 UTC on the 10th) is 22:30 on the 9th there.
const PLAN: Planned[] = [
  {
    name: "A",
    at: "2025-01-09T15:00:00Z",
    level: "high",
    selector: { applied: true, model: "e2e-gap", kept: 3, dropped: 1, dropped_memory_ids: ["m-4"] },
    page: ["m-1", "m-2", "m-3", "m-4"],
  },
  {
    name: "B",
    at: "2025-01-10T03:30:00Z",
    level: "high",
    selector: { applied: true, model: "e2e-gap", kept: 2, dropped: 1, dropped_memory_ids: ["m-1"] },
    page: ["m-1", "m-2", "m-3"],
  },
  {
    name: "C",
    at: "2025-01-10T14:00:00Z",
    level: "low",
    selector: { applied: true, model: "e2e-llm", kept: 3, dropped: 0, dropped_memory_ids: [] },
    page: ["c-1", "c-2", "c-3"],
  },
  { name: "D", at: "2025-01-10T16:00:00Z", level: "none", selector: { applied: false, reason: "disabled" }, page: ["d-1"] },
  // 22 dropped, only the first 20 ids listed (the contract's cap); the page holds the kept two.
  {
    name: "E",
    at: "2025-01-11T12:00:00Z",
    level: "moderate",
    selector: {
      applied: true,
      model: "e2e-llm",
      kept: 2,
      dropped: 22,
      dropped_memory_ids: Array.from({ length: 20 }, (_, i) => `m-${i + 10}`),
    },
    page: ["m-1", "m-2"],
  },
];

const FROM = "2025-01-09T05:00:00.000Z";
const TO = "2025-01-12T05:00:00.000Z";

async function ingest(request: APIRequestContext, store: string, run: string): Promise<Record<string, string>> {
  const posted = await request.post("/api/recalls", {
    data: {
      recalls: PLAN.map((p) => ({
        external_id: `e2e-insights-${run}-${p.name}`,
        store,
        created_at: p.at,
        request: { query: `insights ${run} recall ${p.name}`, k: 5 },
        response: {
          results: p.page.map((id, rank) => ({ memory_id: id, summary: `Memory ${id} (${run})`, score: 0.9 - rank / 10 })),
          confidence: {
            level: p.level,
            top_score: 0.8,
            prominence: 0.5,
            relative_margin: 3,
            result_count: 8,
            rationale: "Planned for the insights spec.",
          },
          selector: p.selector,
        },
        latency_ms: 20,
      })),
    },
  });
  expect(posted.status()).toBe(201);
  const body = (await posted.json()) as { accepted: number; results: { index: number; id: string }[] };
  expect(body.accepted).toBe(PLAN.length);
  return Object.fromEntries(body.results.map((r) => [PLAN[r.index]!.name, r.id]));
}

async function stat(page: Page, testId: string) {
  const tile = page.getByTestId(testId);
  return { value: tile.getByTestId("stat-value"), detail: tile.getByTestId("stat-detail") };
}

test("the page shows the rates of the ingested recalls, in the browser's zone, and drills down to them @postgres", async ({
  page,
  request,
  stamp,
}) => {
  const run = stamp;
  const store = `e2e-insights-${run}`;
  const ids = await ingest(request, store, run);

  await page.goto(`/insights?from=${FROM}&to=${TO}&bucket=day&store=${encodeURIComponent(store)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
  await expect(page).toHaveTitle(/Insights/);
  await expect(page.getByTestId("insights-tz")).toContainText("America/New_York (your browser’s time zone)", FIRST_ANSWER);

  // Totals: 5 recalls; the selector ran on 4; 24 of 34 results dropped; 3 of 4 lost one; 2 of 5 weak.
  const recalls = await stat(page, "stat-recalls");
  await expect(recalls.value).toHaveText("5");
  const applied = await stat(page, "stat-applied-rate");
  await expect(applied.value).toHaveText("80%");
  await expect(applied.detail).toHaveText("4 of 5 recalls that did not fail; evaluation runs left out");
  const drop = await stat(page, "stat-drop-rate");
  await expect(drop.value).toHaveText("70.6%");
  await expect(drop.detail).toHaveText("24 of 34 results dropped; evaluation runs left out");
  // The filter bar says what the default leaves out, in words; "All sources" is one choice away.
  await expect(page.getByTestId("insights-source-note")).toHaveText(
    "Evaluation runs are left out: their recalls are test traffic. Choose “All sources” to count them.",
  );
  await page.getByTestId("insights-source").selectOption("all");
  await expect(page).toHaveURL(/[?&]source=all(&|$)/);
  await expect(page.getByTestId("insights-source-note")).toHaveText("Every source is counted, evaluation runs included.");
  await expect(recalls.value).toHaveText("5");
  await expect(drop.detail).toHaveText("24 of 34 results dropped; every source, evaluation runs included");
  const lost = await stat(page, "stat-lost-any");
  await expect(lost.value).toHaveText("75%");
  const weak = await stat(page, "stat-weak-hit");
  await expect(weak.value).toHaveText("40%");

  // Days cut at New York midnight: B belongs to the 9th.
  await page.getByTestId("bucket-table").locator("summary").click();
  const buckets = page.getByTestId("bucket-row");
  await expect(buckets).toHaveCount(3);
  await expect(buckets.nth(0)).toHaveAttribute("data-bucket", "2025-01-09T00:00");
  await expect(buckets.nth(0)).toContainText("Thu, Jan 9, 2025");
  await expect(buckets.nth(0).locator("td").nth(1)).toHaveText("2");
  await expect(buckets.nth(0).locator("td").nth(3)).toContainText("28.6%2 of 7");
  await expect(buckets.nth(1).locator("td").nth(1)).toHaveText("2");
  await expect(buckets.nth(2).locator("td").nth(1)).toHaveText("1");

  // The charts draw, and a bucket's tooltip carries its counts.
  const chart = page.getByTestId("selector-chart");
  await expect(chart.getByTestId("chart-empty")).toHaveCount(0);
  const surface = chart.locator("svg.recharts-surface").first();
  await expect(surface).toBeVisible();
  // Opening the bucket table above may have scrolled the chart out of the viewport.
  await surface.scrollIntoViewIfNeeded();
  const box = (await surface.boundingBox())!;
  await page.mouse.move(box.x + 44 + ((box.width - 92) * 1) / 6, box.y + box.height / 2);
  const tooltip = page.getByTestId("chart-tooltip");
  await expect(tooltip).toContainText("Thu, Jan 9, 2025");
  await expect(tooltip).toContainText("28.6% (2 of 7 results)");
  await expect(page.getByTestId("level-chart").getByTestId("chart-empty")).toHaveCount(0);

  // Per store and per model.
  await expect(page.getByTestId("store-row")).toHaveCount(1);
  await expect(page.getByTestId("store-row")).toHaveAttribute("data-store", store);
  const gap = page.locator('[data-testid="model-row"][data-model="e2e-gap"]');
  await expect(gap.locator("td").nth(1)).toHaveText("2");
  await expect(gap.locator("td").nth(2)).toContainText("28.6%");
  const llm = page.locator('[data-testid="model-row"][data-model="e2e-llm"]');
  await expect(llm.locator("td").nth(2)).toContainText("81.5%");
  await expect(page.getByTestId("reason-row")).toHaveCount(1);
  await expect(page.getByTestId("reason-row")).toHaveAttribute("data-reason", "disabled");

  // Most-dropped: m-1 (dropped by B, kept by A and E) heads the list; the capped list is said.
  const first = page.getByTestId("dropped-row").first();
  await expect(first).toHaveAttribute("data-memory-id", "m-1");
  await expect(first.getByTestId("dropped-count")).toHaveText("1");
  await expect(first.getByTestId("kept-count")).toHaveText("2");
  await expect(page.getByTestId("cap-note")).toContainText("2 drops in this range are not itemized");

  // Disagreements: B (high, its top hit m-1 dropped) and C (low, nothing dropped).
  await expect(page.locator('[data-testid="disagreement-row"][data-kind="top_dropped"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="disagreement-row"][data-kind="top_dropped"]')).toHaveAttribute(
    "data-recall-id",
    ids.B!,
  );
  await expect(page.locator('[data-testid="disagreement-row"][data-kind="weak_kept_all"]')).toHaveAttribute(
    "data-recall-id",
    ids.C!,
  );

  // Drill down: the memory's row opens the History filtered to the recalls that dropped it.
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/recalls\?.*dropped_memory=m-1/);
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-recall-id", ids.B!);
  // The filter that came with the link is shown, and can be dropped.
  await expect(page.getByTestId("drill-down-filters")).toContainText("Selector dropped memory m-1");

  // And the store row opens all five; a disagreement opens its recall.
  await page.goBack();
  await page.getByTestId("store-row").getByRole("link").click();
  await expect(page).toHaveURL(/\/recalls\?/);
  await expect(page.getByTestId("history-row")).toHaveCount(5);
  await page.goBack();
  await page.locator('[data-testid="disagreement-row"][data-kind="weak_kept_all"]').getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/recalls/${ids.C}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Logged recall" })).toBeVisible();
});

test("recalls run with the score-gap selector show up under its model, and its row lists them in History", async ({
  page,
  request,
}) => {
  // Deterministic on the demo corpus: the first has a clear gap under its top hit at k=10.
  const queries = [
    "What went wrong with VAT on Belgian invoices?",
    "who's responsible for the quoting service",
    "When is Daniel's birthday?",
  ];
  const ran: string[] = [];
  for (const query of queries) {
    const res = await request.post("/api/recall", { data: { query, selector: "gap", k: 10 } });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { id: string; selector: { applied: boolean; model?: string } };
    if (body.selector.applied) {
      expect(body.selector.model).toBe("score-gap");
      ran.push(body.id);
    }
  }
  expect(ran.length).toBeGreaterThan(0);

  await page.goto("/insights?range=24h&selector_model=score-gap");
  await expect(page.getByTestId("insights-scope")).toContainText("selector model score-gap", FIRST_ANSWER);
  const row = page.locator('[data-testid="model-row"][data-model="score-gap"]');
  await expect(row).toHaveCount(1);
  expect(Number((await row.locator("td").nth(1).innerText()).replace(/,/g, ""))).toBeGreaterThanOrEqual(ran.length);
  await expect(page.getByTestId("stat-applied-rate").getByTestId("stat-value")).toHaveText("100%");

  await row.getByRole("link").click();
  await expect(page).toHaveURL(/\/recalls\?.*selector_model=score-gap/);
  for (const id of ran) await expect(page.locator(`[data-testid="history-row"][data-recall-id="${id}"]`)).toHaveCount(1);
});

test("an empty range explains itself", async ({ page, stamp }) => {
  const store = `e2e-insights-nothing-${stamp}`;
  await page.goto(`/insights?range=7d&store=${encodeURIComponent(store)}`);
  const empty = page.getByTestId("insights-empty");
  await expect(empty).toContainText("No recalls in this range for these filters");
  await expect(empty).toContainText(`in store ${store}`);
  await empty.getByRole("button", { name: "All recalls, default range" }).click();
  await expect(page).toHaveURL(/\/insights$/);
});

test("with no range in the link, Insights opens on a range that holds the log's recalls", async ({ page, request }) => {
  const extent = (await (await request.get("/api/insights/extent")).json()) as { first: string | null };
  const age = extent.first ? Date.now() - Date.parse(extent.first) : Infinity;
  const expected = age <= 24 * 3_600_000 ? "24h" : age <= 7 * 86_400_000 ? "7d" : "30d";
  await page.goto("/insights");
  await expect(page.getByTestId("insights-view").getByRole("combobox", { name: "Time", exact: true })).toHaveValue(expected, {
    timeout: 30_000,
  });
});
