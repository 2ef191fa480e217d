import { expect, test, type Page } from "@playwright/test";

/**
 * Relevance labels: a recall labeled in the console with the keyboard alone keeps its labels
 * after a reload, and History's label filter (in the URL) finds it, and only the right filter
 * does. The query carries a per-run stamp so earlier runs against the same server cannot match.
 */

function stamp(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

async function runRecall(page: Page, query: string): Promise<string> {
  await page.goto("/");
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(query);
  await box.press("Enter");
  // Generous: on a fresh server the first recall waits for the demo corpus to be embedded.
  await expect(page).toHaveURL(/\/\?recall=[0-9a-f-]{36}$/, { timeout: 120_000 });
  await expect(page.getByTestId("recall-query")).toHaveText(query);
  return new URL(page.url()).searchParams.get("recall")!;
}

test("label a recall in the console with the keyboard, then find it with History's label filter @postgres", async ({ page }) => {
  test.setTimeout(240_000);
  const run = stamp();
  const query = `Who handles Kafka consumer lag pages? (labels ${run})`;
  const id = await runRecall(page, query);

  const panel = page.getByTestId("labels-panel");
  const rows = panel.getByTestId("label-row");
  await expect(rows.first()).toBeVisible();
  await expect(panel).toContainText("Keys:");

  // Typing in the query box is not a shortcut: leave it first.
  await page.getByRole("textbox", { name: "Query" }).press("y");
  await expect(panel.getByTestId("label-present-yes")).toHaveAttribute("aria-pressed", "false");
  await page.getByRole("textbox", { name: "Query" }).press("Backspace");
  await page.getByRole("textbox", { name: "Query" }).blur();

  await page.keyboard.press("y");
  await expect(panel.getByTestId("label-present-yes")).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("1"); // row 1 → relevant
  await page.keyboard.press("2");
  await page.keyboard.press("2"); // row 2 → relevant → not relevant
  await expect(rows.nth(0)).toHaveAttribute("data-label", "relevant");
  await expect(rows.nth(1)).toHaveAttribute("data-label", "not_relevant");

  // In a row: x marks it not relevant, ↓ moves to the next row, r marks that one relevant.
  await rows.nth(2).getByTestId("label-relevant").focus();
  await page.keyboard.press("x");
  await expect(rows.nth(2)).toHaveAttribute("data-label", "not_relevant");
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(3).getByTestId("label-relevant")).toBeFocused();
  await page.keyboard.press("r");
  await expect(rows.nth(3)).toHaveAttribute("data-label", "relevant");
  await expect(panel.getByTestId("labels-status")).toHaveText(/^Saved · 2 relevant, 2 not relevant$/, { timeout: 15_000 });
  // A set's relevant ids come back sorted (relevance is a set, not a ranking).
  const relevant = [await rows.nth(0).getAttribute("data-memory-id"), await rows.nth(3).getAttribute("data-memory-id")].sort();

  // Stored: the recall page shows the same labels.
  await page.goto(`/recalls/${id}`);
  const stored = page.getByTestId("labels-panel");
  await expect(stored.getByTestId("label-present-yes")).toHaveAttribute("aria-pressed", "true");
  await expect(stored.getByTestId("label-row").nth(0)).toHaveAttribute("data-label", "relevant");
  await expect(stored.getByTestId("label-row").nth(3)).toHaveAttribute("data-label", "relevant");

  // History: the label filter is a control whose value lives in the URL.
  await page.goto(`/recalls?q=${encodeURIComponent(run)}`);
  const historyRows = page.getByTestId("history-table").getByTestId("history-row");
  await expect(historyRows).toHaveCount(1);
  await page.getByLabel("Label", { exact: true }).selectOption("present");
  await expect(page).toHaveURL(/[?&]label=present(&|$)/);
  await expect(historyRows).toHaveCount(1);
  await expect(historyRows.first()).toHaveAttribute("data-recall-id", id);
  await expect(historyRows.first().getByTestId("history-label")).toHaveText("present");

  await page.getByLabel("Label", { exact: true }).selectOption("absent");
  await expect(page).toHaveURL(/[?&]label=absent(&|$)/);
  await expect(page.getByTestId("history-empty")).toBeVisible();

  // A shared link opens with the filter applied.
  await page.goto(`/recalls?label=labeled&q=${encodeURIComponent(run)}`);
  await expect(page.getByLabel("Label", { exact: true })).toHaveValue("labeled");
  await expect(historyRows).toHaveCount(1);

  // Select it and create a labeled query set from its labels.
  await historyRows.first().getByTestId("history-select").check();
  const bar = page.getByTestId("create-set");
  await expect(bar).toContainText("1 selected → 1 item");
  const name = `labels e2e ${run}`;
  await bar.getByLabel("Set name").fill(name);
  await bar.getByTestId("create-set-submit").click();
  await expect(bar.getByTestId("create-set-done")).toContainText("Created a set of 1 item");
  const sets = (await (await page.request.get("/api/datasets")).json()) as {
    datasets: { id: string; name: string; origin: string }[];
  };
  const set = sets.datasets.find((d) => d.name === name)!;
  expect(set.origin).toBe("history");
  const fetched = (await (await page.request.get(`/api/datasets/${set.id}`)).json()) as {
    items: { query: string; relevant: string[] }[];
  };
  expect(fetched.items.map((i) => ({ query: i.query, relevant: i.relevant }))).toEqual([{ query, relevant }]);
});
