import { expect, test, type Page } from "@playwright/test";

// The app under test is configured (playwright.config.ts) with two remote stores on a loopback
// fake of the reference memory service — one with the right key, one with a wrong one — and an
// LLM selector on a loopback fake chat-completions server. The real clients talk to both.

async function recall(page: Page, query: string, options: { store?: string; selector?: string; mode?: string } = {}) {
  await page.goto("/");
  if (options.store) await page.getByLabel("Store").selectOption(options.store);
  if (options.selector) await page.getByLabel("Selector").selectOption(options.selector);
  if (options.mode) await page.getByLabel("Search mode").selectOption(options.mode);
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(query);
  await box.press("Enter");
}

async function logged(page: Page) {
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: 30_000 });
  return page.getByTestId("recall-result");
}

test("a recall through the remote store renders what the service said, and is logged", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Store").selectOption("fake");
  await expect(page.getByTestId("remote-notice")).toContainText("bumps the access counts");
  await recall(page, "why were there 401s in June", { store: "fake" });
  const result = await logged(page);
  await expect(result.getByTestId("level-badge").first()).toHaveAttribute("data-level", "high");
  await expect(result.getByTestId("confidence-panel")).toContainText("0.919");
  await expect(result.getByTestId("confidence-panel")).toContainText(/derived/i);
  await expect(result.getByTestId("score-distribution")).toContainText(/does not expose its candidate pool/i);
  await expect(result.getByTestId("result-row").first()).toBeVisible();

  const id = new URL(page.url()).searchParams.get("recall")!;
  const stored = await page.request.get(`/api/recalls/${id}`);
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({ store: "fake", candidates: null, confidence: { level: "high", background_derived: true } });
});

test("a remote store that refuses the key shows an actionable message and the console keeps working", async ({ page }) => {
  await recall(page, "anything at all", { store: "fake-badkey" });
  const error = page.getByTestId("recall-error");
  await expect(error).toContainText(/rejected its API key .*set a valid key in REMOTE_STORES\[1\]\.api_key/);
  await expect(error).not.toContainText("kagura_not-the-right-key");
  await error.getByRole("link", { name: "open the log entry" }).click();
  await expect(page.getByTestId("recall-failure")).toContainText(/API key/i);

  // The page still works: a recall on the embedded store goes through.
  await recall(page, "what time is the daily standup");
  await logged(page);
});

test("the score-gap selector drops rows below the largest gap and says so", async ({ page }) => {
  // Deterministic on the demo corpus: one clear hit, then a relative drop well over the 15% bound.
  await recall(page, "What went wrong with VAT on Belgian invoices?", { selector: "gap" });
  const result = await logged(page);
  const panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "true");
  await expect(panel.getByTestId("selector-model")).toContainText("score-gap");
  await expect(panel.getByTestId("selector-kept")).toHaveText("1");
  await expect(panel.getByTestId("selector-dropped")).toHaveText("4");
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(4);
  await expect(result.getByTestId("result-row").first()).toHaveAttribute("data-dropped", "false");
});

test("the LLM selector keeps what the model answered; a timeout leaves the page unselected with the reason", async ({ page }) => {
  // The fake model keeps the first two ids of the page.
  await recall(page, "who covers while Tomasz is on paternity leave", { selector: "llm" });
  let result = await logged(page);
  let panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "true");
  await expect(panel.getByTestId("selector-model")).toContainText("fake-selector-model");
  await expect(panel.getByTestId("selector-kept")).toHaveText("2");
  await expect(panel.getByTestId("selector-dropped")).toHaveText("3");
  const rows = result.getByTestId("result-row");
  await expect(rows.nth(0)).toHaveAttribute("data-dropped", "false");
  await expect(rows.nth(1)).toHaveAttribute("data-dropped", "false");
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(3);

  await recall(page, "standup timeout-please", { selector: "llm" });
  result = await logged(page);
  panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "false");
  await expect(panel.getByTestId("selector-reason")).toContainText(/timeout|time/i);
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(0);
});
