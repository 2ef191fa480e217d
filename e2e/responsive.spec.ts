import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Every page on a phone (390 × 844) and a laptop (1366 × 900): the page never scrolls sideways
 * (`scrollWidth <= innerWidth`) and its key controls are on screen and usable. The data the pages
 * show (two recalls, an evaluation run) is made through the API first; the memory page uses a
 * memory of the demo corpus.
 */

const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/** The app with sign-in on (playwright.config.ts: E2E_PORT + 4). */
const AUTH_APP = `http://127.0.0.1:${E2E_PORT + 4}`;

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;

interface Seeded {
  /** A word only these recalls' queries hold, so History can be filtered to them (other specs log recalls too). */
  stamp: string;
  recallA: string;
  recallB: string;
  memoryId: string;
  runId: string;
}

let seeded: Promise<Seeded> | null = null;

async function postJson(request: APIRequestContext, url: string, data: unknown) {
  const response = await request.post(url, { data, timeout: 90_000 });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** Two recalls (one with a long query), the demo corpus's newest memory and an evaluation run. */
function seed(request: APIRequestContext): Promise<Seeded> {
  seeded ??= (async () => {
    const stamp = `resp${Date.now().toString(36)}`;
    // The first recall of a cold server loads the store and the embedder: a generous timeout.
    const a = await postJson(request, "/api/recall", { query: `what is Maya allergic to? ${stamp}`, k: 10 });
    const b = await postJson(request, "/api/recall", {
      query: `when is the dentist appointment and which clinic does Maya usually go to for her regular checkups ${stamp}`,
      k: 5,
      selector: "gap",
    });
    const memories = await (await request.get("/api/memories?limit=1")).json();
    const datasets = await (await request.get("/api/datasets")).json();
    const demo = datasets.datasets.find((d: { origin: string }) => d.origin === "demo") ?? datasets.datasets[0];
    const run = await postJson(request, "/api/eval-runs", { dataset_id: demo.id, k: 5 });
    return { stamp, recallA: a.id, recallB: b.id, memoryId: memories.items[0].id, runId: run.id };
  })();
  return seeded;
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => {
    const inner = window.innerWidth;
    // For the failure message: the outermost elements that reach past the right edge.
    const beyond = (el: Element) => el.getBoundingClientRect().right > inner + 1;
    const past = [...document.querySelectorAll("body *")]
      .filter((el) => beyond(el) && ![...el.children].some(beyond))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: inner, wide: past };
  });
  expect(scrollWidth, `the page scrolls sideways; past the edge: ${wide.join(", ")}`).toBeLessThanOrEqual(innerWidth);
}

/** Visible, and wholly inside the viewport's width (not cut off at the right edge). */
async function expectOnScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()!.width;
  expect(box, "has a box").not.toBeNull();
  expect(box!.x, "starts inside the screen").toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, "ends inside the screen").toBeLessThanOrEqual(width + 0.5);
}

async function heading(page: Page, name: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible({ timeout: 30_000 });
}

for (const size of SIZES) {
  test.describe(`at ${size.width} × ${size.height} (${size.name})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the header: every section reachable, on a phone through the menu", async ({ page }) => {
      await page.goto("/recalls");
      await heading(page, "Recall history");
      const nav = page.getByRole("navigation", { name: "Main" });
      const toggle = nav.getByRole("button", { name: /Menu/ });
      if (size.name === "phone") {
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        await expect(nav.getByRole("link", { name: "Insights" })).toBeHidden();
        await toggle.click();
        await expect(toggle).toHaveAttribute("aria-expanded", "true");
        await expectOnScreen(nav.getByRole("link", { name: "Settings" }));
        await expect(nav.getByRole("link", { name: "History" })).toHaveAttribute("aria-current", "page");
        // Escape closes it and gives the focus back to the toggle.
        await page.keyboard.press("Escape");
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        await expect(toggle).toBeFocused();
        await toggle.click();
        await nav.getByRole("link", { name: "Insights" }).click();
        await heading(page, "Insights");
        // Following a link closes the menu.
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        await expect(nav.getByRole("link", { name: "Memories" })).toBeHidden();
      } else {
        await expect(toggle).toBeHidden();
        for (const label of ["Console", "History", "Insights", "Memories", "Evaluate", "Capture", "Profiles", "Settings"]) {
          await expectOnScreen(nav.getByRole("link", { name: label }));
        }
      }
      await expectNoSidewaysScroll(page);
    });

    test("the console", async ({ page }) => {
      await page.goto("/");
      await heading(page, "Recall console");
      await expectOnScreen(page.getByRole("textbox", { name: "Query" }));
      await expectOnScreen(page.getByRole("button", { name: "Run recall" }));
      await expectOnScreen(page.getByLabel("Store"));
      await expectNoSidewaysScroll(page);
    });

    test("History and a recall's page, and two recalls compared", async ({ page, request }) => {
      test.setTimeout(180_000);
      const { stamp, recallA, recallB } = await seed(request);

      await page.goto(`/recalls?q=${stamp}`);
      await heading(page, "Recall history");
      await expectOnScreen(page.getByLabel("Search queries"));
      const row = page.locator(`[data-testid="history-row"][data-recall-id="${recallA}"]`);
      // The key columns of a row stay on screen: the query, its level and the top score.
      await expectOnScreen(row.getByTestId("history-query"));
      await expectOnScreen(row.getByTestId("level-badge").first());
      await expectOnScreen(row.getByTestId("history-top-score"));
      await expectNoSidewaysScroll(page);

      await row.getByTestId("history-query").click();
      await expect(page).toHaveURL(new RegExp(`/recalls/${recallA}$`));
      await heading(page, "Logged recall");
      const result = page.getByTestId("recall-result");
      await expectOnScreen(result.getByTestId("recall-query"));
      await expectOnScreen(result.getByTestId("score-distribution").first());
      await expectNoSidewaysScroll(page);

      await page.goto(`/recalls/compare?a=${recallA}&b=${recallB}`);
      await heading(page, "Compare recalls");
      await expect(page.getByText(`what is Maya allergic to? ${stamp}`).first()).toBeVisible({ timeout: 30_000 });
      await expectNoSidewaysScroll(page);
    });

    test("Memories and a memory's page", async ({ page, request }) => {
      test.setTimeout(180_000);
      const { memoryId } = await seed(request);
      await page.goto("/memories");
      await heading(page, "Memories");
      await expectOnScreen(page.getByRole("searchbox", { name: "Search summaries or ids" }));
      await expectOnScreen(page.getByRole("button", { name: "Add memory" }));
      const row = page.getByTestId("memory-row").first();
      await expectOnScreen(row.getByRole("link"));
      await expectOnScreen(row.getByRole("button", { name: /^Delete/ }));
      await expectNoSidewaysScroll(page);

      await page.goto(`/memories/${encodeURIComponent(memoryId)}`);
      await heading(page, "Memory");
      await expect(page.getByText(memoryId).first()).toBeVisible();
      await expectNoSidewaysScroll(page);
    });

    test("Insights", async ({ page, request }) => {
      await seed(request);
      await page.goto("/insights");
      await heading(page, "Insights");
      await expectOnScreen(page.getByTestId("insights-view").getByRole("combobox", { name: "Time", exact: true }));
      await expectNoSidewaysScroll(page);
    });

    test("Evaluate and a run's report", async ({ page, request }) => {
      test.setTimeout(180_000);
      const { runId } = await seed(request);
      await page.goto("/evaluate");
      await heading(page, "Evaluate");
      await expect(page.getByTestId("runs-table")).toBeVisible({ timeout: 30_000 });
      await expectNoSidewaysScroll(page);

      await page.goto(`/evaluate/runs/${runId}`);
      await heading(page, "Evaluation run");
      await expectNoSidewaysScroll(page);
      await page.goto("/evaluate/compare");
      await heading(page, "Compare runs");
      await expectNoSidewaysScroll(page);
    });

    test("Profiles, What-if and Settings", async ({ page }) => {
      await page.goto("/profiles");
      await heading(page, "Threshold profiles");
      await expect(page.getByTestId("profiles-table")).toBeVisible({ timeout: 30_000 });
      await expectNoSidewaysScroll(page);

      await page.goto("/what-if");
      await heading(page, "What-if over history");
      await expectNoSidewaysScroll(page);

      await page.goto("/settings");
      await heading(page, "Settings");
      await expectNoSidewaysScroll(page);
    });

    test("sign-in (the app with sign-in on)", async ({ page }) => {
      await page.goto(`${AUTH_APP}/signin`);
      await heading(page, "Sign in");
      await expectOnScreen(page.getByLabel("Password"));
      await expectOnScreen(page.getByRole("button", { name: "Sign in" }));
      await expectNoSidewaysScroll(page);
    });
  });
}
