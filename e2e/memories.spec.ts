import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The Memories page against the embedded store of a fresh database, which loads the demo corpus
 * on first start. Nothing here depends on the corpus's content (only that it is not empty) or on
 * test order: each test makes its own memories with text unique to the run.
 */

interface Stats {
  total: number;
  by_type: Record<string, number>;
  embedding_model: string;
  stale_vectors: number;
}

async function stats(request: APIRequestContext): Promise<Stats> {
  const response = await request.get("/api/memories/stats");
  expect(response.status()).toBe(200);
  return (await response.json()) as Stats;
}

async function createMemory(request: APIRequestContext, summary: string): Promise<string> {
  const response = await request.post("/api/memories", { data: { memories: [{ summary, type: "e2e", tags: ["e2e"] }] } });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { results: { status: string; id: string }[] };
  expect(body.results[0]?.status).toBe("created");
  return body.results[0]!.id;
}

const rows = (page: Page) => page.getByRole("table", { name: "Memories, newest first" }).locator("tbody tr");
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search summaries" });
const addForm = (page: Page) => page.getByRole("form", { name: "Add a memory" });

async function search(page: Page, text: string) {
  await searchBox(page).fill(text);
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === text);
}

test.beforeAll(async ({ request }) => {
  // The first request after the server starts opens the store and may load the demo corpus.
  test.setTimeout(120_000);
  await expect.poll(async () => (await request.get("/api/memories/stats")).status(), { timeout: 110_000 }).toBe(200);
});

test("lists the store's memories with the total and the embedding model", async ({ page, request }) => {
  await page.goto("/memories");
  await expect(page.getByRole("heading", { level: 1, name: "Memories" })).toBeVisible();
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });

  const expected = await stats(request);
  expect(expected.total).toBeGreaterThan(0);
  await expect(page.getByTestId("memory-total")).toHaveText(expected.total.toLocaleString("en-US"));
  await expect(page.getByTestId("embedding-model")).toHaveText(expected.embedding_model);
  await expect(page.getByRole("list", { name: /Memories by type/ }).getByRole("button")).toHaveCount(
    Object.keys(expected.by_type).length,
  );

  const firstPage = Math.min(50, expected.total);
  await expect(rows(page)).toHaveCount(firstPage);
  await expect(page.getByText(`Showing ${firstPage} of ${expected.total.toLocaleString("en-US")}`)).toBeVisible();
  if (expected.total > 50) {
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows(page)).toHaveCount(Math.min(100, expected.total));
  }
});

test("search narrows the list and stays in the URL across a reload", async ({ page, request, unique }) => {
  const token = unique("findme");
  await createMemory(request, `${token} alpha: the staging database moved to a new host`);
  await createMemory(request, `${token} beta: the weekly sync moved to Thursday`);

  await page.goto("/memories");
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });

  await search(page, token);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByText(`Showing 2 of 2 memories for search “${token}”`)).toBeVisible();

  await search(page, `${token} beta`);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("the weekly sync moved to Thursday");

  await page.reload();
  await expect(searchBox(page)).toHaveValue(`${token} beta`);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${token} beta`);

  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(searchBox(page)).toHaveValue("");
  await expect(page).toHaveURL((url) => !url.searchParams.has("q"));
  await expect(page.getByText(/^Showing \d+ of [\d,]+ memories, newest first\.$/)).toBeVisible();
});

test("a memory added through the form appears in the list", async ({ page, unique }) => {
  const token = unique("added");
  await page.goto("/memories");
  await page.getByRole("button", { name: "Add memory" }).click();
  const form = addForm(page);
  await expect(form.getByLabel("Summary")).toBeFocused();

  await form.getByLabel("Summary").fill(`${token} prefers release notes in plain text`);
  await form.getByLabel("Content").fill("Said so in the retro; markdown tables render badly in their mail client.");
  await form.getByLabel("Type").fill("preference");
  await form.getByLabel("Tags").fill("release, email");
  await form.getByLabel("Importance").fill("0.8");
  await form.getByRole("button", { name: "Save memory" }).click();
  await expect(form.getByRole("status")).toContainText(`Added “${token} prefers release notes in plain text”`);
  await expect(form.getByLabel("Summary")).toHaveValue("");

  await search(page, token);
  await expect(rows(page)).toHaveCount(1);
  const row = rows(page).first();
  await expect(row).toContainText(`${token} prefers release notes in plain text`);
  await expect(row).toContainText("preference");
  const tags = row.getByRole("list", { name: "Tags" }).getByRole("listitem");
  await expect(tags).toHaveText(["release", "email"]);
  await expect(row).toContainText("0.80");
});

test("an invalid memory shows the error and adds nothing", async ({ page, request }) => {
  const before = (await stats(request)).total;
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/memories") posts.push(r.url());
  });

  await page.goto("/memories");
  await page.getByRole("button", { name: "Add memory" }).click();
  const form = addForm(page);
  await form.getByLabel("Summary").fill("    ");
  await form.getByLabel("Importance").fill("1.5");
  await form.getByRole("button", { name: "Save memory" }).click();

  await expect(form.getByText("Summary is empty")).toBeVisible();
  await expect(form.getByText("Importance must be at most 1.")).toBeVisible();
  await expect(form.getByLabel("Summary")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Summary")).toBeFocused();
  await expect(form.getByRole("status")).toHaveText("");

  expect(posts).toEqual([]);
  expect((await stats(request)).total).toBe(before);
});

test("importing a JSON Lines file counts broken lines as errors, then reports created and rejected lines", async ({
  page,
  unique,
}) => {
  const token = unique("imported");
  const file = [
    JSON.stringify({ summary: `${token} the on-call rotation changes on Mondays`, tags: ["oncall"] }),
    "",
    JSON.stringify({ summary: "   ", type: "note" }),
    '{"summary": "cut off half way',
  ].join("\n");

  await page.goto("/memories");
  await page.getByRole("button", { name: "Import file" }).click();
  await page.getByLabel("File (.json, .jsonl or .ndjson)").setInputFiles({
    name: "batch.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file, "utf8"),
  });
  // The preview already counts the broken line and the empty summary as errors, not "3 ready".
  // Without `?store=` the page shows the default store (the demo corpus's) and imports into it.
  await expect(page.getByTestId("import-preview")).toHaveText(
    "batch.jsonl: 1 memory ready to import into store demo, 2 lines with errors.",
  );
  const preview = page.getByRole("list", { name: "Items that will be rejected" }).getByRole("listitem");
  await expect(preview).toHaveText([/^Line 3: summary is empty/, /^Line 4: not valid JSON/]);
  await page.getByRole("button", { name: "Import", exact: true }).click();

  await expect(page.getByText("1 created", { exact: true })).toBeVisible();
  await expect(page.getByText("2 rejected", { exact: true })).toBeVisible();
  const rejected = page.getByRole("list", { name: "Rejected items" }).getByRole("listitem");
  await expect(rejected).toHaveCount(2);
  // The blank line counts: the bad memory is on line 3 of the file.
  await expect(rejected.first()).toContainText("Line 3");
  await expect(rejected.first()).toContainText("summary is empty");
  await expect(rejected.nth(1)).toContainText("Line 4");

  await search(page, token);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("the on-call rotation changes on Mondays");
});

test("deleting a memory asks first, then removes it", async ({ page, request, unique }) => {
  const token = unique("doomed");
  const id = await createMemory(request, `${token} the old VPN endpoint is retired`);

  await page.goto(`/memories?q=${token}`);
  await expect(rows(page)).toHaveCount(1, { timeout: 30_000 });
  const row = rows(page).first();
  await expect(row.locator("code")).toHaveText(id);

  // Keyboard only: open the confirm step, back out with Escape, then confirm.
  const deleteButton = row.getByRole("button", { name: /^Delete/ });
  await deleteButton.focus();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(row.getByRole("button", { name: "Yes, delete" })).toHaveCount(0);
  await expect(deleteButton).toBeFocused();

  await page.keyboard.press("Enter");
  await page.keyboard.press("Shift+Tab");
  await expect(row.getByRole("button", { name: "Yes, delete" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText(`No memories match “${token}”.`)).toBeVisible();
  await expect(page.getByText(`Deleted “${token} the old VPN endpoint is retired”.`)).toBeVisible();
  expect((await request.get(`/api/memories/${id}`)).status()).toBe(404);
});
