import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Named embedded stores through the UI: a store made on the Memories page, two
 * memories imported into it with the import form, the console's store switcher saying what it
 * holds, a recall in it that sees only its memories, and its deletion after a typed confirmation.
 * The store's name carries a per-run stamp, so nothing depends on other specs or on test order.
 */

interface StoreEntry {
  name: string;
  kind: "embedded" | "remote";
  memories?: number;
  default?: boolean;
}

async function storeEntries(request: APIRequestContext): Promise<StoreEntry[]> {
  const response = await request.get("/api/stores");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { stores: StoreEntry[] }).stores;
}

const storePicker = (page: Page) => page.getByRole("combobox", { name: "Store" });

test.beforeAll(async ({ request }) => {
  // The first request after the server starts opens the default store and may load the demo corpus.
  test.setTimeout(120_000);
  await expect.poll(async () => (await request.get("/api/memories/stats")).status(), { timeout: 110_000 }).toBe(200);
});

test("create a store, import into it, recall only its memories, then delete it", async ({ page, request, stamp }) => {
  test.setTimeout(180_000);
  const name = `e2e-store-${stamp}`;
  const token = `storetoken${stamp}`;

  // New store: the form names a taken name in words, then creates the store and switches to it.
  await page.goto("/memories");
  await expect(storePicker(page)).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "New store" }).click();
  const newStore = page.getByRole("form", { name: "New store" });
  await expect(newStore.getByLabel("Name")).toBeFocused();
  const taken = (await storeEntries(request)).find((s) => s.kind === "embedded")!.name;
  await newStore.getByLabel("Name").fill(taken);
  await newStore.getByRole("button", { name: "Create store" }).click();
  await expect(newStore.getByRole("alert")).toContainText(`There is already a store named "${taken}"`);
  await expect(newStore.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");

  await newStore.getByLabel("Name").fill(name);
  await newStore.getByLabel("Description").fill("Made by the e2e stores spec.");
  await newStore.getByRole("button", { name: "Create store" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("store") === name);
  await expect(storePicker(page)).toHaveValue(name);
  await expect(storePicker(page).locator(`option[value="${name}"]`)).toHaveText(`${name} · empty`);
  await expect(page.getByTestId("store-note")).toContainText(`Created store ${name}.`);
  await expect(page.getByText(`Store ${name} is empty.`)).toBeVisible();
  await expect(page.getByTestId("memory-total")).toHaveText("0");

  // The console offers an empty store's import, never the demo's example queries.
  await page.goto("/");
  await storePicker(page).selectOption(name);
  const empty = page.getByTestId("empty-store");
  await expect(empty).toContainText(`Store ${name} is empty — import memories on the Memories page`);
  await expect(empty.getByRole("link", { name: "import memories on the Memories page" })).toHaveAttribute(
    "href",
    `/memories?store=${name}`,
  );
  await expect(page.getByRole("list", { name: /Example queries/ })).toHaveCount(0);

  // Import two memories into it with the import form; the preview names the store it writes to.
  await empty.getByRole("link", { name: "import memories on the Memories page" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/memories" && url.searchParams.get("store") === name);
  await page.getByRole("button", { name: "Import file" }).click();
  const file = [
    JSON.stringify({ summary: `${token} the staging database restarts every Sunday at 03:00`, type: "fact" }),
    JSON.stringify({ summary: `${token} the staging deploy key rotates on the first of the month`, type: "fact" }),
  ].join("\n");
  await page.getByLabel("File (.json, .jsonl or .ndjson)").setInputFiles({
    name: "two.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file, "utf8"),
  });
  await expect(page.getByTestId("import-preview")).toHaveText(`two.jsonl: 2 memories ready to import into store ${name}.`);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("2 created", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("memory-total")).toHaveText("2");
  await expect(page.getByRole("table", { name: "Memories, newest first" }).locator("tbody tr")).toHaveCount(2);

  // Written into that store alone.
  const listed = await request.get(`/api/memories?store=${encodeURIComponent(name)}`);
  expect(listed.status()).toBe(200);
  const ids = ((await listed.json()) as { items: { id: string }[] }).items.map((m) => m.id).sort();
  expect(ids).toHaveLength(2);
  expect((await storeEntries(request)).find((s) => s.name === name)?.memories).toBe(2);

  // The console's switcher says what it holds; a recall in it sees only its two memories.
  await page.goto("/");
  await expect(storePicker(page).locator(`option[value="${name}"]`)).toHaveText(`${name} · 2 memories`);
  await storePicker(page).selectOption(name);
  await expect(page.getByRole("region", { name: "Getting started" })).toContainText(`Store ${name} holds 2 memories.`);
  await expect(page.getByRole("list", { name: /Example queries/ })).toHaveCount(0);
  const query = "when does the staging database restart?";
  const box = page.getByRole("textbox", { name: "Query" });
  await box.fill(query);
  await box.press("Enter");
  await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: 60_000 });
  const recallId = new URL(page.url()).searchParams.get("recall")!;
  const result = page.getByTestId("recall-result");
  await expect(result.getByTestId("recall-query")).toHaveText(query);
  const summaries = result.getByTestId("results-table").getByTestId("result-summary");
  await expect(summaries).toHaveCount(2);
  for (const text of await summaries.allInnerTexts()) expect(text).toContain(token);
  const logged = (await (await request.get(`/api/recalls/${recallId}`)).json()) as {
    request: { store: string };
    results: { memory_id: string }[];
  };
  expect(logged.request.store).toBe(name);
  expect(logged.results.map((r) => r.memory_id).sort()).toEqual(ids);

  // Delete it: the confirmation says what goes, and the button waits for the typed name.
  await page.goto(`/memories?store=${encodeURIComponent(name)}`);
  await expect(storePicker(page)).toHaveValue(name);
  await page.getByRole("button", { name: "Delete store…" }).click();
  const confirm = page.getByTestId("delete-store");
  await expect(confirm).toContainText(`Delete store “${name}”: 2 memories go with it.`);
  await expect(confirm).toContainText("Its recalls stay in History");
  const doDelete = confirm.getByRole("button", { name: `Delete store ${name}` });
  await expect(doDelete).toBeDisabled();
  await confirm.getByLabel(`Type “${name}” to confirm`).fill(name);
  await doDelete.click();
  await expect(page.getByTestId("store-note")).toHaveText(
    `Deleted store ${name} and its 2 memories. Its recalls stay in History.`,
  );
  await expect(page).toHaveURL((url) => url.searchParams.get("store") === null);
  await expect(storePicker(page).locator(`option[value="${name}"]`)).toHaveCount(0);

  expect((await storeEntries(request)).some((s) => s.name === name)).toBe(false);
  expect((await request.get(`/api/memories?store=${encodeURIComponent(name)}`)).status()).toBe(404);
  // Its recall stays in the log, naming the deleted store.
  const kept = await request.get(`/api/recalls/${recallId}`);
  expect(kept.status()).toBe(200);
  expect(((await kept.json()) as { request: { store: string } }).request.store).toBe(name);
});

test("Memories opens on the default store, and a name is refused in words before it is sent", async ({ page, request }) => {
  const stores = await storeEntries(request);
  const preselected = stores.find((s) => s.default) ?? stores.find((s) => s.kind === "embedded")!;
  await page.goto("/memories");
  await expect(storePicker(page)).toHaveValue(preselected.name, { timeout: 30_000 });

  await page.getByRole("button", { name: "New store" }).click();
  const form = page.getByRole("form", { name: "New store" });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/stores") posts.push(r.url());
  });
  await form.getByLabel("Name").fill("a/b");
  await form.getByRole("button", { name: "Create store" }).click();
  await expect(form.getByRole("alert")).toContainText("must not contain / or \\");
  await expect(form.getByLabel("Name")).toBeFocused();
  // Escape closes the form and gives the focus back to its button.
  await page.keyboard.press("Escape");
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New store" })).toBeFocused();
  expect(posts).toEqual([]);
});
