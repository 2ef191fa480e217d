import { expect, test, type Page } from "@playwright/test";

/**
 * The Memories page on a remote store. The app under test (playwright.config.ts) has two remote
 * stores on the loopback fake of the memory service: "fake" with the right key and "fake-badkey"
 * with a wrong one. The fake lists a fixed corpus of four memories (tests/support/fake-memory-service.ts).
 */

const FAKE_SERVICE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 2}`;

const FAKE_SUMMARIES = [
  "JWT expiry caused 401 errors after the Friday deploy",
  "Refresh access tokens 60 seconds before they expire",
  "Auth service runbook: rotating signing keys",
  "Daily standup is at 09:30 Berlin time",
];

const remoteRows = (page: Page) => page.getByRole("table", { name: /^Memories of Fake memory service/ }).locator("tbody tr");
const storePicker = (page: Page) => page.getByRole("combobox", { name: "Store" });

test.beforeEach(async ({ request }) => {
  // No scripted answer left over from another spec may answer our list or stats.
  expect((await request.post(`${FAKE_SERVICE}/__fake/reset`)).status()).toBe(200);
});

test.beforeAll(async ({ request }) => {
  // The first request after the server starts opens the embedded store and may load the demo corpus.
  test.setTimeout(120_000);
  await expect.poll(async () => (await request.get("/api/memories/stats")).status(), { timeout: 110_000 }).toBe(200);
});

test("picking the remote store lists the service's memories, read-only", async ({ page }) => {
  await page.goto("/memories");
  await expect(page.getByRole("heading", { level: 1, name: "Memories" })).toBeVisible();
  // The default store first (the demo corpus's, on a fresh database), with its add and import buttons.
  await expect(page.getByRole("button", { name: "Add memory" })).toBeVisible({ timeout: 30_000 });
  await expect(storePicker(page)).toHaveValue("demo");

  await storePicker(page).selectOption("fake");
  await expect(page).toHaveURL((url) => url.searchParams.get("store") === "fake");

  await expect(remoteRows(page)).toHaveCount(FAKE_SUMMARIES.length);
  for (const summary of FAKE_SUMMARIES) await expect(remoteRows(page).filter({ hasText: summary })).toHaveCount(1);
  await expect(page.getByText("Showing 4 of 4 memories, in the service’s order.")).toBeVisible();

  // The service's counts: total, scope, types.
  await expect(page.getByTestId("memory-total")).toHaveText("4");
  await expect(page.getByTestId("memory-scopes")).toHaveText("3 persistent · 1 working");
  await expect(page.getByRole("list", { name: /Memories by type/ }).getByRole("button")).toHaveCount(4);
  await expect(page.getByTestId("embedding-model")).toHaveCount(0);

  // Read-only, and it says why and what to do instead.
  const notice = page.getByTestId("remote-read-only");
  await expect(notice).toContainText("Memories of a remote store are managed by that service");
  await expect(notice).toContainText("npm run mirror -- fake");
  await expect(page.getByRole("button", { name: "Add memory" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import file" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete/ })).toHaveCount(0);

  // Search goes to the service; the store stays in the URL across a reload.
  await page.getByRole("searchbox", { name: "Search summaries" }).fill("token");
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === "token" && url.searchParams.get("store") === "fake");
  await expect(remoteRows(page)).toHaveCount(1);
  await expect(remoteRows(page).first()).toContainText("Refresh access tokens");
  await page.reload();
  await expect(storePicker(page)).toHaveValue("fake");
  await expect(remoteRows(page)).toHaveCount(1);

  // A type from the service's counts filters the list.
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(remoteRows(page)).toHaveCount(4);
  await page
    .getByRole("list", { name: /Memories by type/ })
    .getByRole("button", { name: /schedule/ })
    .click();
  await expect(remoteRows(page)).toHaveCount(1);
  await expect(remoteRows(page).first()).toContainText("Daily standup");

  // Back to an embedded store: editable again.
  await storePicker(page).selectOption("demo");
  await expect(page).toHaveURL((url) => url.searchParams.get("store") === "demo" && !url.searchParams.has("type"));
  await expect(page.getByRole("button", { name: "Add memory" })).toBeVisible();
  await expect(page.getByTestId("remote-read-only")).toHaveCount(0);
});

test("Load more pages through the service's list", async ({ page }) => {
  // A short first page from the service (has_more), then the rest: the cursor carries the offset.
  const first = await page.request.get("/api/memories?store=fake&limit=2");
  expect(first.status()).toBe(200);
  const body = (await first.json()) as { items: unknown[]; next_cursor: string | null; total: number };
  expect(body.items).toHaveLength(2);
  expect(body.total).toBe(4);
  expect(body.next_cursor).not.toBeNull();

  await page.request.post(`${FAKE_SERVICE}/__fake/next`, {
    data: {
      path: "/api/v1/memory/list",
      json: {
        memories: FAKE_SUMMARIES.slice(0, 2).map((summary, i) => ({
          id: `page-${i}`,
          summary,
          type: "note",
          scope: "persistent",
          importance: 0.5,
          created_at: "2026-06-01T00:00:00Z",
        })),
        total: 4,
        has_more: true,
      },
    },
  });
  await page.goto("/memories?store=fake");
  await expect(remoteRows(page)).toHaveCount(2);
  await expect(page.getByText("Showing 2 of 4 memories, in the service’s order.")).toBeVisible();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(remoteRows(page)).toHaveCount(4);
  await expect(page.getByText("That is all of them.")).toBeVisible();
  await expect(remoteRows(page).last()).toContainText(FAKE_SUMMARIES[3]!);
});

test("a store that rejects its key shows the service's message with a retry", async ({ page }) => {
  await page.goto("/memories");
  await expect(storePicker(page)).toBeVisible({ timeout: 30_000 });
  await storePicker(page).selectOption("fake-badkey");
  await expect(page).toHaveURL((url) => url.searchParams.get("store") === "fake-badkey");

  const alert = page.getByRole("alert").filter({ hasText: "Could not load the memories of" });
  await expect(alert).toContainText(/rejected its API key .*set a valid key in REMOTE_STORES\[1\]\.api_key/);
  await expect(alert).not.toContainText("kagura_not-the-right-key");
  // Said once (the counts do not repeat it), and the page stays read-only.
  await expect(page.getByText(/rejected its API key/)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Add memory" })).toHaveCount(0);

  const retry = alert.getByRole("button", { name: "Try again" });
  await retry.click();
  await expect(alert.getByRole("button", { name: "Try again" })).toBeEnabled();
  await expect(alert).toContainText(/rejected its API key/);
});

test("an unknown store in the URL says which stores there are", async ({ page }) => {
  await page.goto("/memories?store=nope");
  await expect(page.getByRole("alert").filter({ hasText: "Could not load the memories of" })).toContainText(
    /There is no store named "nope"; the stores are: demo, .*fake, fake-badkey\./,
  );
  await expect(storePicker(page)).toHaveValue("nope");
});
