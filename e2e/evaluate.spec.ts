import { expect, test, type APIRequestContext } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

/**
 * Evaluate: upload a small labeled set (a bad line is refused by number first), start a run,
 * watch its progress to the end, reload the report, open one query's recall; then a second run
 * with another k and the comparison of the two. Set names carry a per-run stamp.
 */

interface DemoQuery {
  id: string;
  query: string;
  kind: string;
  relevant: string[];
}

const demo = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as DemoQuery[];
// 20 on-topic and 10 without anything relevant stored (off-topic and near misses).
const ITEMS = [...demo.slice(0, 20), ...demo.slice(84, 89), ...demo.slice(96, 101)].map((q) => ({
  id: q.id,
  query: q.query,
  kind: q.kind,
  relevant: q.relevant,
}));

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

async function waitForRun(request: APIRequestContext, id: string): Promise<{ status: string }> {
  let run = { status: "queued" };
  await expect
    .poll(
      async () => {
        run = (await (await request.get(`/api/eval-runs/${id}`)).json()) as { status: string };
        return run.status;
      },
      { timeout: 120_000, intervals: [250, 500, 1000] },
    )
    .toBe("done");
  return run;
}

test("upload a set, run it, watch progress, open the report and a query's recall, compare two runs", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const name = `e2e set ${stamp()}`;
  await page.goto("/evaluate");
  await expect(page.getByRole("heading", { level: 1, name: "Evaluate" })).toBeVisible();
  await expect(page.getByTestId("sets-table")).toContainText("Demo corpus queries");

  // A bad line is refused by its number, and nothing is stored.
  await page.getByLabel("Name").fill(name);
  const lines = ITEMS.map((i) => JSON.stringify(i));
  await page.getByLabel("Items").fill([lines[0], '{"query": "", "relevant": []}', ...lines.slice(1)].join("\n"));
  await page.getByRole("button", { name: "Upload set" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was stored" })).toContainText("line 2: query: query is empty");
  await expect(page.getByTestId("sets-table")).not.toContainText(name);

  await page.getByLabel("Items").fill(lines.join("\n"));
  await page.getByRole("button", { name: "Upload set" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored 30 queries." })).toBeVisible();
  await expect(page.getByTestId("sets-table")).toContainText(name);

  // Start a run; the report page shows its progress until it is done.
  await page.getByLabel("Labeled set", { exact: true }).selectOption({ label: `${name} (30 queries)` });
  await page.getByLabel("k (results)").fill("5");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/evaluate\/runs\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const runId = page.url().split("/").pop()!;
  await expect(page.getByTestId("run-status")).toHaveText(/^(queued|running|done)$/);
  await expect(page.getByRole("progressbar", { name: "Queries run" })).toHaveAttribute("aria-valuemax", "30");
  await expect(page.getByTestId("run-status")).toHaveText("done", { timeout: 120_000 });
  await expect(page.getByTestId("run-progress")).toHaveText("30 / 30 queries");

  // The report: metrics with counts, charts, the confusion matrix, one row per query.
  // The headline is present vs off-topic; the set's 5 near-misses are counted apart.
  await expect(page.getByTestId("metrics")).toContainText("20 present / 5 off-topic");
  await expect(page.getByTestId("metrics")).toContainText("5 near-misses, apart");
  await expect(page.getByTestId("distribution-top_score").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("roc-chart")).toContainText("top_score: AUC");
  await expect(page.getByTestId("confusion")).toBeVisible();
  await expect(page.getByTestId("by-kind")).toContainText("near_miss");
  await expect(page.getByTestId("query-row")).toHaveCount(30);

  // It survives a reload, sorted as the URL says.
  await page.getByRole("button", { name: "Top score" }).click();
  await expect(page).toHaveURL(/sort=top_score&dir=asc/);
  await page.reload();
  await expect(page.getByTestId("run-status")).toHaveText("done");
  await expect(page.getByRole("columnheader", { name: /Top score/ })).toHaveAttribute("aria-sort", "ascending");

  // A row opens its logged recall.
  const first = ITEMS[0]!.query;
  await page.getByRole("link", { name: first }).click();
  await expect(page).toHaveURL(/\/recalls\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("recall-query")).toHaveText(first);
  await expect(page.getByRole("link", { name: "evaluation run" })).toHaveAttribute("href", `/evaluate/runs/${runId}`);

  // A second run over the same set with k=10, then the comparison.
  const datasetId = ((await (await request.get(`/api/eval-runs/${runId}`)).json()) as { dataset: { id: string } }).dataset.id;
  const second = (await (await request.post("/api/eval-runs", { data: { dataset_id: datasetId, k: 10 } })).json()) as {
    id: string;
  };
  await waitForRun(request, second.id);
  await page.goto("/evaluate");
  await page.getByRole("checkbox", { name: `Compare run ${runId.slice(0, 8)}` }).check();
  await page.getByRole("checkbox", { name: `Compare run ${second.id.slice(0, 8)}` }).check();
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(new RegExp(`/evaluate/compare\\?a=${runId}&b=${second.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();
  await expect(page.getByTestId("delta-table")).toContainText("balanced accuracy");
  await expect(page.getByTestId("flipped-count")).toHaveText(/^\d+$/);
  await page.getByLabel("Only queries that changed").uncheck();
  await expect(page.getByTestId("compare-table").locator("tbody tr")).toHaveCount(30);
});

test("run settings this server cannot honour are disabled with the reason in view; k = 0 is named, not run as 1", async ({
  page,
}) => {
  await page.goto("/evaluate");
  await expect(page.getByRole("heading", { level: 1, name: "Evaluate" })).toBeVisible();
  // No reranker is configured for the e2e app: the box is disabled and says what to set, without hovering.
  const rerank = page.getByTestId("eval-rerank");
  await expect(rerank).toBeDisabled();
  await expect(page.getByText("No reranker here: set RERANK_BASE_URL and RERANK_MODEL, then restart.")).toBeVisible();
  await expect(rerank).toHaveAccessibleDescription(/No reranker here/);
  // The LLM selector is configured for the e2e app (playwright.config.ts): offered as itself.
  await expect(page.getByTestId("eval-selector").locator('option[value="llm"]')).toBeEnabled();
  await expect(page.getByTestId("eval-selector").locator('option[value="gap"]')).toHaveText("score gap (offline heuristic)");

  await page.getByTestId("eval-k").fill("0");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "k must be at least 1." })).toBeVisible();
  await expect(page.getByTestId("eval-k")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/evaluate$/);

  // The upload's button sits under the items box, not below a blank band.
  const items = (await page.getByLabel("Items").boundingBox())!;
  const upload = (await page.getByRole("button", { name: "Upload set" }).boundingBox())!;
  expect(upload.y - (items.y + items.height)).toBeLessThan(40);
});
