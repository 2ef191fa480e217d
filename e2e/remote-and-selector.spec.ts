import { expect, test } from "./support/fixtures";

// The app under test is configured (playwright.config.ts) with two remote stores on a loopback
// fake of the reference memory service — one with the right key, one with a wrong one — and an
// LLM selector on a loopback fake chat-completions server. The real clients talk to both.

test("a recall through the remote store renders what the service said, and is logged", async ({ page, recallConsole }) => {
  await page.goto("/");
  await page.getByLabel("Store").selectOption("fake");
  await expect(page.getByTestId("remote-notice")).toContainText("bumps the access counts");
  await recallConsole.submit("why were there 401s in June", { store: "fake" });
  const result = await recallConsole.logged();
  await expect(result.getByTestId("level-badge").first()).toHaveAttribute("data-level", "high");
  await expect(result.getByTestId("confidence-panel")).toContainText("0.919");
  await expect(result.getByTestId("confidence-panel")).toContainText(/derived/i);
  await expect(result.getByTestId("score-distribution")).toContainText(/does not expose its candidate pool/i);
  await expect(result.getByTestId("result-row").first()).toBeVisible();

  const id = new URL(page.url()).searchParams.get("recall")!;
  const stored = await page.request.get(`/api/recalls/${id}`);
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({
    store: "fake",
    candidates: null,
    confidence: { level: "high", background_derived: true },
  });
});

test("a remote store that refuses the key shows an actionable message and the console keeps working", async ({
  page,
  recallConsole,
}) => {
  await recallConsole.submit("anything at all", { store: "fake-badkey" });
  const error = page.getByTestId("recall-error");
  await expect(error).toContainText(/rejected its API key .*set a valid key in REMOTE_STORES\[1\]\.api_key/);
  await expect(error).not.toContainText("kagura_not-the-right-key");
  await error.getByRole("link", { name: "open the log entry" }).click();
  await expect(page.getByTestId("recall-failure")).toContainText(/API key/i);

  // The page still works: a recall on the embedded store goes through.
  await recallConsole.submit("what time is the daily standup");
  await recallConsole.logged();
});

test("the score-gap selector drops rows below the largest gap and says so", async ({ recallConsole }) => {
  // Deterministic on the demo corpus: one clear hit, then a relative drop well over the 15% bound.
  await recallConsole.submit("What went wrong with VAT on Belgian invoices?", { selector: "gap" });
  const result = await recallConsole.logged();
  const panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "true");
  await expect(panel.getByTestId("selector-model")).toContainText("score-gap");
  await expect(panel.getByTestId("selector-kept")).toHaveText("1");
  await expect(panel.getByTestId("selector-dropped")).toHaveText("4");
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(4);
  await expect(result.getByTestId("result-row").first()).toHaveAttribute("data-dropped", "false");
});

test("the LLM selector keeps what the model answered; a timeout leaves the page unselected with the reason", async ({
  recallConsole,
}) => {
  // The fake model keeps the first two ids of the page.
  await recallConsole.submit("who covers while Tomasz is on paternity leave", { selector: "llm" });
  let result = await recallConsole.logged();
  let panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "true");
  await expect(panel.getByTestId("selector-model")).toContainText("fake-selector-model");
  await expect(panel.getByTestId("selector-kept")).toHaveText("2");
  await expect(panel.getByTestId("selector-dropped")).toHaveText("3");
  const rows = result.getByTestId("result-row");
  await expect(rows.nth(0)).toHaveAttribute("data-dropped", "false");
  await expect(rows.nth(1)).toHaveAttribute("data-dropped", "false");
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(3);

  await recallConsole.submit("standup timeout-please", { selector: "llm" });
  result = await recallConsole.logged();
  panel = result.getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "false");
  await expect(panel.getByTestId("selector-reason")).toContainText(/timeout|time/i);
  await expect(result.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(0);
});
