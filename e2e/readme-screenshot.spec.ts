import path from "node:path";
import { expect, test } from "./support/fixtures";

/**
 * The README's console screenshot (docs/console.png), made from the running app so it shows the
 * console as it is: a recall on the demo corpus at 1366 × 900. In the whole suite the picture goes
 * to the test's output (attached to the report), so the flow it needs is checked on every run
 * without rewriting a tracked image; `npm run screenshot` (README_SCREENSHOT=1) writes
 * docs/console.png itself.
 */

// An on-topic query of the demo set (data/demo/queries.json): a clear hit, every marker drawn.
const ON_TOPIC = "What went wrong with VAT on Belgian invoices?";

// Run alone, the server is cold: its first recall waits for the demo corpus to embed.
test.describe.configure({ timeout: 300_000 });

test("the README's console screenshot: a recall on the demo at 1366 × 900", async ({ page, recallConsole }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const warm = await page.request.post("/api/recall", { data: { query: "warm up the embedder", k: 5 }, timeout: 240_000 });
  expect(warm.status()).toBe(200);

  const { result } = await recallConsole.run(ON_TOPIC);
  const chart = result.getByTestId("score-distribution");
  await expect(chart.getByTestId("marker-background_mean")).toBeVisible();
  await expect(chart.getByTestId("marker-top")).toBeVisible();
  await expect(result.getByTestId("confidence-panel").getByTestId("verdict").getByTestId("level-badge")).toHaveAttribute(
    "data-level",
    /^(high|moderate)$/,
  );
  await expect(result.getByTestId("results-table").getByTestId("result-row").first()).toBeVisible();
  // Fonts loaded, and Recharts' drawing animations (JavaScript, which `animations: "disabled"`
  // does not stop) finished: they run for at most 1.5 s after the chart mounts.
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.waitForTimeout(2_000);
  // The picture is of the page, not of where the focus or the scroll happened to be.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.mouse.move(0, 0);

  const file =
    process.env.README_SCREENSHOT === "1"
      ? path.join(testInfo.project.testDir, "..", "docs", "console.png")
      : testInfo.outputPath("console.png");
  await page.screenshot({ path: file, fullPage: true, animations: "disabled", caret: "hide" });
  await testInfo.attach("console.png", { path: file, contentType: "image/png" });
});
