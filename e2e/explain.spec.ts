import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Explaining a ranking and reopening a logged recall in the browser, on the
 * embedded demo store: the buried best hit named on the chart and in "why", "why isn't X here?"
 * for a memory outside the page, two recalls side by side, the raw JSON, the console's filters,
 * Open in console for an ingested recall, and Retry when the server is unreachable.
 */

const MAYA = "what is Maya allergic to?";
// The first recall of a cold server loads the embedder: generous.
const FIRST_RECALL = 120_000;

interface Candidate {
  memory_id: string;
  rank: number;
  in_pool: boolean;
  returned: boolean;
}

async function runIn(page: Page, query: string, options: { k?: number; mode?: string; types?: string } = {}) {
  await page.goto("/");
  if (options.k !== undefined) await page.getByLabel("k", { exact: true }).fill(String(options.k));
  if (options.mode) await page.getByLabel("Search mode").selectOption(options.mode);
  if (options.types !== undefined) await page.getByLabel("Types").fill(options.types);
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(query);
  await box.press("Enter");
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: FIRST_RECALL });
  const result = page.getByTestId("recall-result");
  await expect(result.getByTestId("recall-query")).toHaveText(query);
  return { result, id: new URL(page.url()).searchParams.get("recall")! };
}

async function logged(request: APIRequestContext, id: string) {
  const answer = await request.get(`/api/recalls/${id}`);
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as {
    id: string;
    request: { k: number; query: string };
    candidates: Candidate[] | null;
    notices: { kind: string; memory_id?: string; message: string }[];
  };
}

test("the buried best hit is named on the chart and in why this level", async ({ page, request }) => {
  test.setTimeout(180_000);
  const { result, id } = await runIn(page, MAYA, { k: 20 });
  const stored = await logged(request, id);
  const buried = stored.notices.filter((n) => n.kind === "buried_best_hit");
  // q-006 at k=20: the best raw cosine of all candidates sits outside the pool.
  expect(buried.length).toBeGreaterThan(0);
  const memory = buried[0]!.memory_id!;
  expect(memory).toBeTruthy();
  // That it is outside the pool is a fact of the logged candidates, not of the notice alone.
  expect(stored.candidates!.find((c) => c.memory_id === memory)?.in_pool).toBe(false);

  const onChart = result
    .getByTestId("chart-notice")
    .filter({ has: page.getByTestId("chart-notice-memory").getByText(memory, { exact: true }) });
  await expect(onChart.first()).toBeVisible();
  await expect(onChart.first()).toHaveAttribute("data-kind", "buried_best_hit");
  await expect(result.locator(`[data-memory-id="${memory}"][data-notice]`).first()).toBeAttached();
  const why = result.getByTestId("why-notices");
  await expect(why).toContainText(memory);
  await expect(why).toContainText("Buried best hit");

  // From the notice straight to "why isn't it here?".
  await onChart.first().getByRole("button", { name: "Why?" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]why=${memory}`));
  const answer = result.getByTestId("why-answer");
  await expect(answer).toContainText(memory, { timeout: 30_000 });
  await expect(answer).not.toHaveAttribute("data-reason", "on_page");
  // The explanation has the focus (not the Why? button it scrolled away from) and reads whole on
  // screen, below the sticky header (scrolled smoothly, so polled).
  await expect(result.getByTestId("why-explanation")).toBeFocused();
  await expect
    .poll(async () => {
      const box = await answer.boundingBox();
      const banner = await page.getByRole("banner").boundingBox();
      const height = page.viewportSize()!.height;
      return box !== null && banner !== null && box.y >= banner.y + banner.height - 0.5 && box.y + box.height <= height + 0.5;
    })
    .toBe(true);
});

test("why isn't X here explains a memory outside the page, and a memory can be picked from the store", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { result, id } = await runIn(page, MAYA, { k: 5 });
  const stored = await logged(request, id);
  const outside = stored.candidates!.filter((c) => !c.returned).sort((a, b) => a.rank - b.rank)[0]!;
  expect(outside.rank).toBeGreaterThan(5);

  const panel = result.getByTestId("why-not-here");
  await panel.getByLabel("Memory id").fill(outside.memory_id);
  await panel.getByRole("button", { name: "Explain" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]why=${outside.memory_id}`));
  const answer = panel.getByTestId("why-answer");
  await expect(answer).toBeVisible({ timeout: 30_000 });
  await expect(answer).toContainText(outside.memory_id);
  await expect(answer.getByTestId("why-rank-merged")).toHaveText(`#${outside.rank}`);
  await expect(answer.getByTestId("why-message")).not.toBeEmpty();
  expect(await answer.getAttribute("data-reason")).toBeTruthy();

  // The URL carries the question: a reload answers it again.
  await page.reload();
  await expect(page.getByTestId("why-answer")).toContainText(outside.memory_id, { timeout: 30_000 });

  // An id that is no memory of the store: said in words, not a blank panel.
  const again = page.getByTestId("why-not-here");
  await again.getByLabel("Memory id").fill("no-such-memory-e2e");
  await again.getByRole("button", { name: "Explain" }).click();
  await expect(again.getByTestId("why-error")).toBeVisible({ timeout: 30_000 });

  // Pick one from the store's memories instead of pasting its id.
  await again.getByRole("button", { name: "Pick from the store's memories" }).click();
  await again.getByLabel(/Search the memories of/).fill("peanut");
  const pick = again.getByTestId("why-pick").first();
  await expect(pick).toBeVisible({ timeout: 30_000 });
  const picked = (await pick.locator("code").textContent())!.trim();
  await pick.click();
  await expect(again.getByTestId("why-answer")).toContainText(picked, { timeout: 30_000 });
});

test("run again with k=20 opens both recalls side by side, and the raw JSON opens", async ({ page }) => {
  test.setTimeout(180_000);
  const { result, id } = await runIn(page, MAYA, { k: 5 });

  // Raw JSON: the request as logged, then the whole answer.
  const raw = result.getByTestId("raw-json");
  await raw.getByText("Raw JSON (request and answer as stored)").click();
  const text = raw.getByTestId("raw-json-text");
  const requestJson = JSON.parse((await text.textContent()) ?? "") as { query: string; k: number };
  expect(requestJson).toMatchObject({ query: MAYA, k: 5 });
  await raw.getByRole("button", { name: "Answer", exact: true }).click();
  await expect(text).toContainText(`"id": "${id}"`);
  const answerJson = JSON.parse((await text.textContent()) ?? "") as { id: string; candidates: unknown[] };
  expect(answerJson.id).toBe(id);
  expect(answerJson.candidates.length).toBeGreaterThan(5);

  await result.getByTestId("compare-actions").getByRole("button", { name: "Run again with k=20" }).click();
  await expect(page).toHaveURL(new RegExp(`/recalls/compare\\?a=${id}&b=[0-9a-f-]{36}$`), { timeout: 60_000 });
  const view = page.getByTestId("compare-view");
  await expect(view.getByTestId("compare-side-a")).toContainText("k=5 · hybrid");
  await expect(view.getByTestId("compare-side-b")).toContainText("k=20 · hybrid");
  await expect(view.getByTestId("compare-side-a").getByTestId("level-badge")).toBeVisible();
  await expect(view.getByTestId("compare-chart")).toHaveAttribute("data-metric", "raw_cosine");
  await expect(view.locator('[data-side="a"]').first()).toBeAttached();
  await expect(view.locator('[data-side="b"]').first()).toBeAttached();
  // B's page holds fifteen more memories than A's: at least that many rows changed page.
  await expect(view.getByTestId("rank-change-row").first()).toBeVisible();
  expect(await view.locator('[data-testid="rank-change-row"][data-page-changed="true"]').count()).toBeGreaterThanOrEqual(15);
  await expect(view.getByTestId("compare-summary")).toContainText(/memories are on B's page and not on A's\./);

  // The URL is the comparison: shareable, and the axis too.
  await view.getByRole("button", { name: "BM25" }).click();
  await expect(page).toHaveURL(/metric=bm25/);
  await page.reload();
  await expect(page.getByTestId("compare-chart")).toHaveAttribute("data-metric", "bm25");
});

test("the console's type filter runs and is shown on the recall", async ({ page }) => {
  test.setTimeout(180_000);
  const { result } = await runIn(page, "what does Maya prefer for lunch?", { types: "preference" });
  await expect(result.getByTestId("recall-filters")).toHaveText("types: preference");
  // Reopened, the form shows the filter it ran with.
  await page.reload();
  await expect(page.getByLabel("Types")).toHaveValue("preference", { timeout: 30_000 });
});

test("open in console shows exactly what an ingested recall asked, and runs it on the default store instead", async ({
  page,
  request,
  stamp,
}) => {
  test.setTimeout(180_000);
  const store = `agent-prod-${stamp}`;
  const query = `what is Maya allergic to? ${stamp}`;
  const posted = await request.post("/api/recalls", {
    data: {
      recalls: [
        {
          store,
          request: { query, k: 7, search_mode: "semantic", filters: { type: "fact", tags: ["people"], scope: "persistent" } },
          response: {
            results: [{ memory_id: "p-1", summary: "Maya has a peanut allergy", score: 0.61 }],
            confidence: {
              level: "moderate",
              top_score: 0.61,
              prominence: 0.3,
              relative_margin: 2,
              result_count: 7,
              rationale: "",
            },
          },
          latency_ms: 12,
        },
      ],
    },
  });
  expect(posted.status()).toBe(201);
  const id = ((await posted.json()) as { results: { id: string }[] }).results[0]!.id;

  await page.goto(`/recalls/${id}`);
  await page.getByRole("link", { name: "Open in console" }).click();
  const form = page.getByRole("form", { name: "Run a recall" });
  await expect(page).toHaveURL(new RegExp(`/\\?recall=${id}$`));
  await expect(form.getByRole("textbox", { name: "Query" })).toHaveValue(query, { timeout: 30_000 });
  await expect(form.getByLabel("Store")).toHaveValue(store);
  await expect(page.getByTestId("unconfigured-store-option")).toHaveText(`${store} (not configured here)`);
  await expect(form.getByLabel("k", { exact: true })).toHaveValue("7");
  await expect(form.getByLabel("Search mode")).toHaveValue("semantic");
  await expect(form.getByLabel("Selector")).toHaveValue("off");
  await expect(form.getByLabel("Types")).toHaveValue("fact");
  await expect(form.getByLabel("Tags", { exact: true })).toHaveValue("people");
  await expect(page.getByTestId("unsupported-filters")).toContainText("scope");
  const notice = page.getByTestId("unconfigured-store");
  await expect(notice).toContainText(`The store “${store}” is not configured here`);
  await expect(page.getByRole("button", { name: "Run recall" })).toBeDisabled();

  await notice.getByRole("button", { name: "Run on store demo instead" }).click();
  await expect(page).not.toHaveURL(new RegExp(id), { timeout: FIRST_RECALL });
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/);
  const result = page.getByTestId("recall-result");
  await expect(result.getByTestId("recall-query")).toHaveText(query);
  // "Instead" is the default store: the demo corpus's on a fresh database.
  await expect(form.getByLabel("Store")).toHaveValue("demo");
  await expect(result.getByTestId("recall-filters")).toContainText("types: fact");
});

test("an unreachable server gets a Retry that runs the same recall", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await page.route("**/api/recall", (route) => route.abort("connectionrefused"));
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(MAYA);
  await box.press("Enter");
  const error = page.getByTestId("recall-error");
  await expect(error).toContainText("Could not reach the dashboard's server");
  await page.unroute("**/api/recall");
  await error.getByRole("button", { name: "Retry" }).click();
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: FIRST_RECALL });
  await expect(page.getByTestId("recall-result").getByTestId("recall-query")).toHaveText(MAYA);
  await expect(page.getByTestId("recall-error")).toHaveCount(0);
});
