import { expect, test } from "./support/fixtures";

/**
 * The Reachability page: a small store of its own (a per-run name, so nothing depends
 * on other specs), audited from the page; its one memory no keyword can match is listed as
 * unreachable with the reason, and "Reproduce as a recall" opens a logged recall whose
 * "why isn't this memory here?" says why.
 */
const MEMORIES = [
  "Maya is allergic to peanuts and carries an epipen when travelling.",
  "The billing service moved off Redis after a six hour outage.",
  "Omar goes bouldering near Quito with an old friend on weekends.",
  "Every Kafka alert for checkout pages the on-call engineer within ten minutes.",
  "Priya adopted a teal iguana and named it after a chess champion.",
  "Lukas booked three nights in Oslo for the origami festival in June.",
  "The amber Grafana dashboard shows Nairobi traffic, refreshed every five seconds.",
  "Ines cooks lentil curry every Friday.",
];
/** Only stopwords: no keyword query matches it, so keyword mode never reaches it. */
const WORDLESS = "It is what it was, and that is that.";

test.beforeAll(async ({ request }) => {
  // The first request after the server starts opens the default store and may load the demo corpus.
  test.setTimeout(120_000);
  await expect.poll(async () => (await request.get("/api/memories/stats")).status(), { timeout: 110_000 }).toBe(200);
});

test("audit a small store and follow an unreachable memory to a recall that shows why", async ({ page, request, stamp }) => {
  test.setTimeout(180_000);
  const store = `e2e-audit-${stamp}`;
  expect((await request.post("/api/stores", { data: { name: store } })).status()).toBe(201);
  const imported = await request.post("/api/memories", {
    data: {
      store,
      memories: [
        ...MEMORIES.map((summary, i) => ({ id: `m-${i}`, summary, type: "fact" })),
        { id: "wordless", summary: WORDLESS, type: "fact" },
      ],
    },
  });
  expect(imported.status()).toBe(201);

  // The page opens on the store named in the link; nothing audited yet.
  await page.goto(`/audit?store=${encodeURIComponent(store)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Reachability" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Store" })).toHaveValue(store);
  await expect(page.getByText(`No audit of ${store} yet.`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel("Near-duplicate threshold (cosine ≥)")).toHaveValue("0.95");

  await page.getByRole("button", { name: "Run audit" }).click();
  const findings = page.getByTestId("audit-findings");
  await expect(findings).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("audit-count-unreachable")).toContainText("1");
  await expect(page.getByTestId("audit-count-shadowed")).toContainText("0");
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();

  // Filter by class: the one unreachable memory, with the rule that kept it off the page.
  await page.getByTestId("audit-count-unreachable").click();
  await expect(page).toHaveURL((url) => url.searchParams.get("class") === "unreachable");
  const row = findings.locator('tr[data-memory="wordless"]');
  await expect(row).toBeVisible();
  await expect(row.getByRole("link", { name: "wordless" })).toHaveAttribute(
    "href",
    `/memories/wordless?store=${encodeURIComponent(store)}`,
  );
  const reason = row.getByTestId("unreachable-reason");
  await expect(reason).toHaveAttribute("data-mode", "keyword");
  await expect(reason).toHaveAttribute("data-reason", "no_keyword_match");

  // Reproduce it: the probe runs again as a logged recall, opened with "why isn't this memory here?".
  await reason.getByRole("button", { name: "Reproduce as a recall" }).click();
  await expect(page).toHaveURL(/\/recalls\/[0-9a-f-]{36}\?why=wordless$/, { timeout: 30_000 });
  const answer = page.getByTestId("why-answer");
  await expect(answer).toHaveAttribute("data-reason", "no_keyword_match", { timeout: 30_000 });
  await expect(page.getByTestId("why-message")).toContainText("holds none of the query's keywords");

  // Back on the page, a change to the store marks the result stale.
  await request.post("/api/memories", { data: { store, memories: [{ id: "later", summary: "Added after the audit ran." }] } });
  await page.goto(`/audit?store=${encodeURIComponent(store)}`);
  await expect(page.getByTestId("audit-stale")).toBeVisible({ timeout: 30_000 });
  await request.delete(`/api/stores/${encodeURIComponent(store)}`);
});
