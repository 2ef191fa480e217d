import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The console on a phone: after Run recall the verdict is on screen and the focus is on
 * the result's heading, the results keep their scores in view (a card a row), no summary word is
 * cut in two, and the level-by-k strip keeps its k = 20 column; on a laptop too, no level badge
 * is clipped ("Moderat" at 1366 px was the strip's k = 20 badge cut by its scroll box).
 */

// An on-topic query of the demo corpus (data/demo/queries.json): five results, a verdict, a strip.
const ON_TOPIC = "What went wrong with VAT on Belgian invoices?";

/** The first recall of a cold server loads the store and the embedder: done here, not under the UI's timeout. */
async function warmUp(request: APIRequestContext) {
  const response = await request.post("/api/recall", { data: { query: "warm up the embedder", k: 5 }, timeout: 240_000 });
  expect(response.status()).toBe(200);
}

/** Whether the element's box lies wholly between the sticky app header and the bottom of the screen. */
async function readable(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const banner = await page.getByRole("banner").boundingBox();
  const { height } = page.viewportSize()!;
  if (!box) return false;
  const top = banner ? banner.y + banner.height : 0;
  return box.y >= top - 0.5 && box.y + box.height <= height + 0.5;
}

/** Visible and wholly inside the screen's width once scrolled to (not cut off, not behind a sideways scroll). */
async function expectWithinWidth(locator: Locator, what: string) {
  await expect(locator, what).toBeVisible();
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()!.width;
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box!.x, `${what} starts inside the screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends inside the screen`).toBeLessThanOrEqual(width + 0.5);
}

/** A box that scrolls sideways: content wider than the box. */
/** Whether any of the elements scrolls sideways (a results table has the page and the outside candidates). */
async function scrollsSideways(locator: Locator): Promise<boolean> {
  const widths = await locator.evaluateAll((els) => els.map((el) => el.scrollWidth > el.clientWidth + 0.5));
  expect(widths.length, "elements to check").toBeGreaterThan(0);
  return widths.some(Boolean);
}

/**
 * Level badges whose word does not show whole: wider than the badge itself, or reaching past an
 * ancestor that clips (any overflow other than visible).
 */
async function clippedBadges(scope: Locator): Promise<string[]> {
  return scope.getByTestId("level-badge").evaluateAll((badges) =>
    badges.flatMap((badge) => {
      const problems: string[] = [];
      const word = badge.textContent ?? "";
      if (badge.scrollWidth > badge.clientWidth) {
        problems.push(`"${word}": scrollWidth ${badge.scrollWidth} > clientWidth ${badge.clientWidth}`);
      }
      const box = badge.getBoundingClientRect();
      for (let clip = badge.parentElement; clip; clip = clip.parentElement) {
        const style = getComputedStyle(clip);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const edge = clip.getBoundingClientRect();
        if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5) {
          problems.push(
            `"${word}" (${box.left.toFixed(1)}–${box.right.toFixed(1)}) cut by ${clip.tagName.toLowerCase()}.${String(clip.className)} (${edge.left.toFixed(1)}–${edge.right.toFixed(1)})`,
          );
        }
      }
      return problems;
    }),
  );
}

/** Words of the text broken across two lines (a word on one line has its boxes on one line). */
async function wordsCutInTwo(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) => {
    const cut: string[] = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? "").matchAll(/[\p{L}\p{N}]+/gu)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) cut.push(match[0]);
        }
      }
    }
    return cut;
  });
}

test.describe("at 390 × 844 (phone)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("Run recall brings the verdict into view and focuses the result's heading", async ({ page, recallConsole }) => {
    test.setTimeout(300_000);
    await warmUp(page.request);
    const { result } = await recallConsole.run(ON_TOPIC);

    // The focus is on the result's heading (not left in the query box or dropped to the body) …
    const heading = result.getByTestId("result-heading");
    await expect(heading).toBeFocused();
    await expect(heading).toHaveAttribute("tabindex", "-1");
    // … and the page has scrolled (smoothly, so polled) until the verdict reads whole on screen.
    const verdict = result.getByTestId("confidence-panel").getByTestId("verdict");
    await expect(verdict.getByTestId("level-badge")).toHaveAttribute("data-level", /^(high|moderate|low|none)$/);
    await expect.poll(() => readable(page, verdict), { message: "the verdict is on screen" }).toBe(true);
    expect(await page.evaluate(() => window.scrollY), "the page scrolled to it").toBeGreaterThan(0);
    // The heading reads the verdict out with it.
    const describedBy = await heading.getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    expect(await verdict.getAttribute("id")).toBe(describedBy);
  });

  test("the results keep their scores in view, no summary word is cut, and the strip keeps k = 20", async ({
    page,
    recallConsole,
  }) => {
    test.setTimeout(300_000);
    await warmUp(page.request);
    const { result } = await recallConsole.run(ON_TOPIC);

    const table = result.getByTestId("results-table");
    const rows = table.getByTestId("result-row");
    await expect(rows).toHaveCount(5);
    for (const row of [rows.first(), rows.last()]) {
      await expectWithinWidth(row.getByTestId("result-score"), "Score");
      await expectWithinWidth(row.getByTestId("result-cosine"), "Raw cosine");
      await expectWithinWidth(row.getByTestId("result-bm25"), "BM25");
      // Each value says which score it is (the header row is out of sight on a phone).
      await expect(row.getByTestId("result-score")).toHaveAttribute("data-caption", "Score");
    }
    // Nothing of the table hides behind a sideways scroll.
    expect(await scrollsSideways(table.locator("table").locator("xpath=.."))).toBe(false);
    expect(await wordsCutInTwo(table.getByTestId("result-summary"))).toEqual([]);

    const strip = result.getByTestId("k-sensitivity");
    await expectWithinWidth(strip.getByRole("columnheader", { name: "k = 20" }), "the k = 20 column");
    await expectWithinWidth(strip.getByTestId("k-20-level").getByTestId("level-badge"), "the k = 20 level");
    expect(await scrollsSideways(strip.locator("table").locator("xpath=..")), "the strip scrolls sideways").toBe(false);
    expect(await clippedBadges(result)).toEqual([]);

    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth, "the page scrolls sideways").toBeLessThanOrEqual(390);
  });
});

test.describe("at 1366 × 900 (laptop)", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("no level badge is clipped, and Run recall focuses the result's heading", async ({ page, recallConsole }) => {
    test.setTimeout(300_000);
    await warmUp(page.request);
    const { result } = await recallConsole.run(ON_TOPIC);

    await expect(result.getByTestId("result-heading")).toBeFocused();
    await expect.poll(() => readable(page, result.getByTestId("verdict")), { message: "the verdict is on screen" }).toBe(true);

    const strip = result.getByTestId("k-sensitivity");
    await expect(strip.getByTestId("k-20-level").getByTestId("level-badge")).toBeVisible();
    expect(await scrollsSideways(strip.locator("table").locator("xpath=..")), "the strip scrolls sideways").toBe(false);
    expect(await clippedBadges(result)).toEqual([]);
  });
});
