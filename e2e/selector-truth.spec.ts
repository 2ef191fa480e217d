import { expect, test, type Page } from "@playwright/test";

/**
 * Selector truth (lib/selectors/README.md "Selector truth"), with the app's LLM selector on the
 * loopback fake chat-completions server (tests/support/fake-llm.ts): `invent-id-please` makes
 * the model keep an id that is on no page. The selector panel shows what the model said and the
 * invented id as the failure reason; from Insights, the PM drills from that reason into History
 * and sees only those recalls.
 */

const INVENTED_ID = "mem-invented-by-llm";

async function recall(page: Page, query: string) {
  await page.goto("/");
  await page.getByLabel("Selector").selectOption("llm");
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(query);
  await box.press("Enter");
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: 30_000 });
  return new URL(page.url()).searchParams.get("recall")!;
}

test("the selector panel shows the raw answer and the invented id as the failure reason; Insights drills into History by that reason", async ({
  page,
}) => {
  const from = new Date(Date.now() - 60_000).toISOString();

  const first = await recall(page, "who covers while Tomasz is on paternity leave invent-id-please");
  const panel = page.getByTestId("recall-result").getByTestId("selector-panel");
  await expect(panel).toHaveAttribute("data-applied", "false");
  await expect(panel).toHaveAttribute("data-kind", "failed");
  await expect(panel.getByTestId("selector-kind")).toHaveText("Failed");
  await expect(panel.getByTestId("selector-reason")).toContainText("Answer named an id not on the page");
  await expect(panel.getByTestId("selector-reason")).toContainText(INVENTED_ID);
  // The trace is open on a failure: what the model said, the keep list it wrote, the invented id.
  await expect(panel.getByTestId("selector-raw-answer")).toContainText(`"keep"`);
  await expect(panel.getByTestId("selector-raw-answer")).toContainText(INVENTED_ID);
  await expect(panel.getByTestId("selector-unknown-ids")).toHaveText(INVENTED_ID);
  await expect(panel.getByTestId("selector-keep-ids")).toContainText(INVENTED_ID);
  await expect(panel.getByTestId("selector-prompt")).toContainText("version 1");
  await expect(panel.getByTestId("selector-tokens")).toContainText("total");
  // Not applied: every result is on the page the agent got.
  await expect(page.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(0);

  const second = await recall(page, "what time is the daily standup invent-id-please");
  // Another failure of another kind, which the reason's drill-down must leave out.
  const other = await recall(page, "what time is the daily standup error-please");
  await expect(page.getByTestId("recall-result").getByTestId("selector-reason")).toContainText("HTTP error");
  const to = new Date(Date.now() + 60_000).toISOString();

  await page.goto(`/insights?from=${from}&to=${to}&bucket=hour`);
  await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
  const failures = page.getByTestId("stat-failure-rate");
  await expect(failures.getByTestId("stat-value")).not.toHaveText("—");
  const reason = page.locator('[data-testid="reason-row"][data-reason="unknown_id"]');
  await expect(reason).toHaveAttribute("data-kind", "failed");
  await expect(reason.locator("td").nth(2)).toHaveText("2");
  await reason.getByRole("link").click();

  await expect(page).toHaveURL(/\/recalls\?.*selector_reason=unknown_id/);
  await expect(page.getByTestId("drill-down-filters")).toContainText("Answer named an id not on the page");
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  const ids = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-recall-id")));
  expect(ids.sort()).toEqual([first, second].sort());
  expect(ids).not.toContain(other);
});
