import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The memory page: find a memory by pasting its id, open its page, see the recalls it appeared in
 * and follow one; a memory deleted since is marked in that old recall and keeps its page. Also the
 * not-found pages of an unknown memory and recall. Each test makes its own memory with a token
 * unique to the run, so nothing depends on the demo corpus or on test order.
 */

async function createMemory(request: APIRequestContext, id: string, summary: string) {
  const response = await request.post("/api/memories", { data: { memories: [{ id, summary, type: "e2e", tags: ["e2e"] }] } });
  expect(response.status()).toBe(201);
}

/** A logged recall of the embedded store; its id. The first one on a cold server may wait for the store. */
async function recall(request: APIRequestContext, query: string): Promise<{ id: string; results: string[] }> {
  const response = await request.post("/api/recall", { data: { query, k: 5, search_mode: "hybrid" }, timeout: 120_000 });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { id: string; results: { memory_id: string }[] };
  return { id: body.id, results: body.results.map((r) => r.memory_id) };
}

test.beforeAll(async ({ request }) => {
  // The first request after the server starts opens the store and may load the demo corpus.
  test.setTimeout(150_000);
  await expect.poll(async () => (await request.get("/api/memories/stats")).status(), { timeout: 140_000 }).toBe(200);
});

test("a pasted id finds the memory; its page lists the recalls it appeared in, which open", async ({ page, request, unique }) => {
  test.setTimeout(180_000);
  const token = unique("zephyrine");
  const id = `e2e.${token}`;
  const summary = `${token} the staging database is rebuilt every Sunday night`;
  await createMemory(request, id, summary);
  const first = await recall(request, `${token} staging database rebuilt`);
  const second = await recall(request, `when is the ${token} staging database rebuilt`);
  // The unique token is in the query and the summary only: BM25 ranks it first.
  expect(first.results[0]).toBe(id);
  expect(second.results[0]).toBe(id);

  await page.goto("/memories");
  const box = page.getByRole("searchbox", { name: "Search summaries or ids" });
  await box.fill(id);
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === id);
  const rows = page.getByTestId("memory-row");
  await expect(rows).toHaveCount(1, { timeout: 30_000 });
  await rows.first().getByRole("link", { name: summary }).click();

  // Ids are unique per store: the page names the memory's store.
  await expect(page).toHaveURL(new RegExp(`/memories/${id.replace(/\./g, "\\.")}\\?store=demo$`));
  await expect(page.getByRole("heading", { level: 1, name: "Memory" })).toBeVisible();
  await expect(page.getByTestId("memory-details").getByRole("heading", { name: summary })).toBeVisible();
  await expect(page.getByTestId("memory-model")).not.toBeEmpty();
  const count = (key: string) => page.getByTestId(`memory-count-${key}`).locator("span").first();
  await expect(count("appeared")).toHaveText("2", { timeout: 30_000 });
  await expect(count("returned")).toHaveText("2");
  await expect(count("dropped")).toHaveText("0");
  const recalls = page.getByTestId("memory-recall-row");
  await expect(recalls).toHaveCount(2);
  // Newest first.
  await expect(recalls.first()).toContainText(`when is the ${token} staging database rebuilt`);
  await expect(recalls.first()).toContainText("Returned");
  await expect(page.getByTestId("memory-neighbour").first()).toBeVisible({ timeout: 30_000 });

  // A count filters the list, and the filter is in the URL.
  await page.getByTestId("memory-count-dropped").click();
  await expect(page).toHaveURL((url) => url.searchParams.get("show") === "dropped" && url.searchParams.get("store") === "demo");
  await expect(recalls).toHaveCount(0);
  await page.getByTestId("memory-count-appeared").click();
  await expect(recalls).toHaveCount(2);

  await recalls
    .nth(1)
    .getByRole("link", { name: `${token} staging database rebuilt` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/recalls/${first.id}$`));
  const row = page.locator(`[data-testid="result-row"][id="result-${id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("deleted-memory")).toHaveCount(0);
  await expect(row.getByRole("link", { name: id })).toHaveAttribute("href", `/memories/${id}?store=demo`);
});

test("a memory deleted since is marked in old recalls and its page still lists them", async ({ page, request, unique }) => {
  test.setTimeout(180_000);
  const token = unique("quillwort");
  const id = `e2e.${token}`;
  await createMemory(request, id, `${token} the legacy FTP drop is switched off in March`);
  const logged = await recall(request, `${token} legacy FTP drop`);
  expect(logged.results).toContain(id);
  expect((await request.delete(`/api/memories/${id}`)).status()).toBe(200);

  await page.goto(`/recalls/${logged.id}`);
  const row = page.locator(`[data-testid="result-row"][id="result-${id}"]`);
  await expect(row.getByTestId("deleted-memory")).toBeVisible({ timeout: 30_000 });
  await row.getByRole("link", { name: id }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Deleted memory" })).toBeVisible();
  await expect(page.getByTestId("memory-deleted")).toBeVisible();
  await expect(page.getByTestId("memory-recall-row")).toHaveCount(1);
  await expect(page.getByTestId("memory-neighbours")).toHaveCount(0);
});

test("an unknown memory or recall gets a real 404 that says what is missing", async ({ page }) => {
  const memory = await page.goto("/memories/no-such-memory-anywhere");
  expect(memory?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Memory not found" })).toBeVisible();
  await expect(page.getByTestId("memory-not-found").getByRole("link", { name: "Memories" })).toBeVisible();

  for (const path of ["/recalls/00000000-0000-4000-8000-000000000000", "/recalls/not-a-uuid"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Recall not found" })).toBeVisible();
    await expect(page.getByTestId("recall-not-found").getByRole("link", { name: "History" })).toBeVisible();
  }
});

test("the favicon is served, and a page whose scripts never run says so", async ({ browser, page, request }) => {
  expect((await request.get("/favicon.ico")).status()).toBe(200);
  expect((await request.get("/icon.svg")).status()).toBe(200);
  await page.goto("/memories");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /icon/);
  await expect(page.getByRole("heading", { level: 1, name: "Memories" })).toBeVisible();
  // Hydrated: the notice is gone.
  await expect(page.getByTestId("hydration-notice")).toHaveCount(0);

  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  try {
    const dead = await noScripts.newPage();
    await dead.goto(new URL("/memories", page.url()).toString());
    await expect(dead.getByTestId("hydration-notice")).toBeVisible({ timeout: 20_000 });
    await expect(dead.getByTestId("hydration-notice")).toContainText("This page has not started");
  } finally {
    await noScripts.close();
  }
});
