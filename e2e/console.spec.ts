import { expect, test } from "./support/fixtures";

// Queries from the demo corpus's labeled set (data/demo/queries.json) whose levels under the
// default thresholds and USE-lite are known: run `npm run eval` to see the whole set.
const ON_TOPIC = "What went wrong with VAT on Belgian invoices?";
const OFF_TOPIC = "How many moons does Jupiter have?";

test("an on-topic query reads high or moderate, with the chart's markers and the results @postgres", async ({
  recallConsole,
}) => {
  const { result } = await recallConsole.run(ON_TOPIC);
  const badge = result.getByTestId("confidence-panel").getByTestId("verdict").getByTestId("level-badge");
  await expect(badge).toHaveAttribute("data-level", /^(high|moderate)$/);

  const chart = result.getByTestId("score-distribution");
  await expect(chart.getByTestId("marker-background_mean")).toBeVisible();
  await expect(chart.getByTestId("marker-top")).toBeVisible();
  await expect(chart.getByTestId("marker-prominence_band").first()).toBeVisible();

  const rows = result.getByTestId("results-table").getByTestId("result-row");
  await expect(rows).toHaveCount(5);
  await expect(result.getByTestId("why-this-level")).toContainText(/Prominence \d\.\d{3} ≥ \d\.\d{3}/);
  await expect(result.getByTestId("selector-panel")).toContainText(/off/i);
});

test("an off-topic query reads low or none, and the chart and trace explain it", async ({ recallConsole }) => {
  const { result } = await recallConsole.run(OFF_TOPIC);
  await expect(result.getByTestId("confidence-panel").getByTestId("verdict").getByTestId("level-badge")).toHaveAttribute(
    "data-level",
    /^(low|none)$/,
  );
  await expect(result.getByTestId("why-this-level")).toContainText(/Prominence \d\.\d{3} < \d\.\d{3} → (none|low)|→ low/);
  await expect(result.getByTestId("confidence-panel")).toContainText(/go external/i);
  await expect(result.getByTestId("score-distribution").getByTestId("marker-background_mean")).toBeVisible();
});

test("a logged recall looks the same after a reload and on its permalink page @postgres", async ({ page, recallConsole }) => {
  const { result } = await recallConsole.run(ON_TOPIC);
  const url = page.url();
  const id = new URL(url).searchParams.get("recall")!;
  const snapshot = async () => ({
    level: await page.getByTestId("level-badge").first().getAttribute("data-level"),
    why: await page.getByTestId("why-this-level").innerText(),
    rows: await page.getByTestId("result-row").allInnerTexts(),
    markers: await page.getByTestId("score-distribution").locator("[data-testid^=marker-]").allInnerTexts(),
  });
  const before = await snapshot();
  expect(before.rows.length).toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByTestId("recall-result")).toHaveAttribute("data-recall-id", id);
  // The form shows what this recall asked.
  await expect(page.getByRole("textbox", { name: "Query" })).toHaveValue(ON_TOPIC);
  expect(await snapshot()).toEqual(before);

  await result.page().goto(`/recalls/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Logged recall" })).toBeVisible();
  expect(await snapshot()).toEqual(before);
});

test("an example chip runs its query, chosen from the keyboard, and the result takes the focus", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/");
  // A chip is a button named by its query: Tab to it and press Enter, as a keyboard user would.
  const chip = page.getByRole("button", { name: OFF_TOPIC });
  await chip.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: 120_000 });
  const result = page.getByTestId("recall-result");
  await expect(result.getByTestId("recall-query")).toHaveText(OFF_TOPIC);
  await expect(page.getByRole("textbox", { name: "Query" })).toHaveValue(OFF_TOPIC);
  await expect(result.getByTestId("result-heading")).toBeFocused();
});

test("bad input gets a message and runs nothing", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill("   ");
  await page.getByRole("button", { name: "Run recall" }).click();
  // (Next's route announcer is an empty alert too, hence the filter.)
  await expect(page.getByRole("alert").filter({ hasText: "query is empty" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await box.fill("kafka");
  await page.getByLabel("k", { exact: true }).fill("500");
  await box.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "k must be at most 100." })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test("an unknown recall id says so and offers a way on", async ({ page }) => {
  await page.goto("/?recall=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert").filter({ hasText: "was not found" })).toBeVisible();
  await page.getByRole("link", { name: "Start a new recall" }).click();
  await expect(page.getByRole("textbox", { name: "Query" })).toBeVisible();

  const response = await page.goto("/recalls/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
});
