import { expect, test } from "./support/fixtures";

/**
 * History: recalls run in the console are listed newest first; a text filter narrows the table,
 * lives in the URL and survives a reload; a row opens the logged recall's detail page.
 * Query texts carry a per-run stamp, so earlier runs against the same server cannot match.
 */

test("console recalls show up in history; a text filter narrows them, survives reload and opens the detail @postgres", async ({
  page,
  recallConsole,
  stamp,
}) => {
  const run = stamp;
  const older = `Who handles Kafka consumer lag pages? (history ${run} alpha)`;
  const newer = `What went wrong with VAT on Belgian invoices? (history ${run} beta)`;
  const olderId = (await recallConsole.run(older)).id;
  const newerId = (await recallConsole.run(newer)).id;

  await page.goto("/recalls");
  await expect(page.getByRole("heading", { level: 1, name: "Recall history" })).toBeVisible();
  const table = page.getByTestId("history-table");
  const rows = table.getByTestId("history-row");
  // Newest first: the two just run are on top.
  await expect(rows.nth(0)).toHaveAttribute("data-recall-id", newerId);
  await expect(rows.nth(1)).toHaveAttribute("data-recall-id", olderId);
  await expect(rows.nth(0).getByTestId("history-query")).toHaveText(newer);
  await expect(rows.nth(0).getByTestId("level-badge")).toHaveAttribute("data-level", /^(high|moderate|low|none)$/);

  // Narrow by text: one row left, and the URL says so.
  const search = page.getByRole("searchbox", { name: "Search queries" });
  await search.fill(`${run} alpha`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(`${run} alpha`).replace(/%20/g, "(\\+|%20)")}(&|$)`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-recall-id", olderId);

  // A reload (or a shared link) shows the same filtered view.
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search queries" })).toHaveValue(`${run} alpha`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-recall-id", olderId);

  // Clicking the row (not only its link) opens the logged recall.
  await rows.first().locator("td time").click();
  await expect(page).toHaveURL(new RegExp(`/recalls/${olderId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Logged recall" })).toBeVisible();
  await expect(page.getByTestId("recall-query")).toHaveText(older);
});

test("filters that match nothing say so and can be cleared; the query link is keyboard reachable", async ({
  page,
  recallConsole,
  stamp,
}) => {
  const run = stamp;
  const query = `Where do the deploy runbooks live? (history ${run})`;
  const id = (await recallConsole.run(query)).id;

  await page.goto(`/recalls?q=${encodeURIComponent(`no such recall ${run}`)}&level=high,none&range=24h`);
  await expect(page.getByTestId("history-empty")).toContainText("No recalls match these filters");
  await expect(page.getByTestId("history-level").getByRole("checkbox", { name: "High" })).toBeChecked();
  await expect(page.getByRole("combobox", { name: "Time" })).toHaveValue("24h");

  await page.getByTestId("history-empty").getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/recalls$/);
  const first = page.getByTestId("history-row").first();
  await expect(first).toHaveAttribute("data-recall-id", id);
  await expect(page.getByTestId("history-level").getByRole("checkbox", { name: "High" })).not.toBeChecked();

  // The query text is a link: focus it and press Enter.
  await first.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/recalls/${id}$`));
  await expect(page.getByTestId("recall-query")).toHaveText(query);
});

test("an ingested recall appears in the history with its selector block, and the filtered history exports @postgres", async ({
  page,
  request,
}) => {
  const marker = `ingested ${Date.now()}`;
  const posted = await request.post("/api/recalls", {
    data: {
      recalls: [
        {
          external_id: `e2e-${marker}`,
          store: "production",
          request: { query: marker, k: 3 },
          response: {
            results: [
              { memory_id: "p-1", summary: "Kept by the production selector", score: 0.91 },
              { memory_id: "p-2", summary: "Dropped by the production selector", score: 0.42 },
            ],
            confidence: {
              level: "high",
              top_score: 0.919,
              prominence: 0.559,
              relative_margin: 4.989,
              result_count: 8,
              rationale:
                "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
            },
            selector: { applied: true, model: "prod-selector", kept: 1, dropped: 1, dropped_memory_ids: ["p-2"] },
          },
          latency_ms: 88,
        },
      ],
    },
  });
  expect(posted.status()).toBe(201);

  await page.goto(`/recalls?source=ingest&q=${encodeURIComponent(marker)}`);
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("production");
  await rows.first().getByRole("link", { name: marker }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Logged recall" })).toBeVisible();
  const selector = page.getByTestId("selector-panel");
  await expect(selector).toHaveAttribute("data-applied", "true");
  await expect(selector.getByTestId("selector-model")).toContainText("prod-selector");
  await expect(page.locator('[data-testid="result-row"][data-dropped="true"]')).toHaveCount(1);

  await page.goto(`/recalls?source=ingest&q=${encodeURIComponent(marker)}`);
  const download = page.waitForEvent("download");
  await page.getByTestId("export-csv").click();
  const file = await (await download).path();
  const text = (await import("node:fs")).readFileSync(file!, "utf8");
  const lines = text.trim().split("\n");
  expect(lines[0]).toMatch(/^id,created_at,source,store,query/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(marker);
});

test("History shows mode and k, the top score with its scale, the selector and the filter's total; the store is a picker", async ({
  page,
  recallConsole,
  stamp,
}) => {
  const query = `Which team owns the billing exporter? (columns ${stamp})`;
  const id = (await recallConsole.run(query)).id;

  await page.goto(`/recalls?q=${encodeURIComponent(`columns ${stamp}`)}`);
  const row = page.locator(`[data-testid="history-row"][data-recall-id="${id}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByTestId("history-mode")).toHaveText(/^hybrid · k \d+$/);
  // The embedded store exposes raw cosines: the top score says so.
  await expect(row.getByTestId("history-top-score")).toHaveAttribute("data-unit", "cos");
  await expect(row.getByTestId("history-top-score")).toHaveText(/^-?\d\.\d{3} cos$/);
  await expect(row.getByTestId("history-selector")).toHaveText(/off|kept/);
  await expect(page.getByRole("status").filter({ hasText: "1 recall matches." })).toBeVisible();
  await expect(page.getByTestId("history-split")).toContainText("By the store's verdict");
  await expect(page.getByTestId("history-split")).toContainText("By reference level");
  // The level column leads with the store's verdict (the demo store's shipped profile, with its
  // probability) and names the reference level beside it, what the agent saw.
  const verdict = row.getByTestId("history-verdict-cell");
  await expect(verdict).toHaveAttribute("data-by", "profile");
  await expect(verdict.getByTestId("level-badge")).toHaveCount(1);
  await expect(verdict.getByTestId("history-verdict-probability")).toHaveText(/^(<1|>99|\d{1,3})%$/);
  await expect(verdict.getByTestId("history-reference-level")).toHaveText(/^reference: (high|moderate|low|none)$/);
  // Filtering by the verdict's own level keeps the row; by any other level, it goes.
  const level = (await verdict.getByTestId("level-badge").getAttribute("data-level"))!;
  const other = level === "none" ? "high" : "none";
  await page
    .getByTestId("history-verdict")
    .getByRole("checkbox", { name: other === "none" ? "None" : "High" })
    .click(); // the chip follows the URL, so it shows checked only once the URL has changed
  await expect(page).toHaveURL(new RegExp(`[?&]verdict=${other}(&|$)`));
  await expect(row).toHaveCount(0);
  await page.goto(`/recalls?q=${encodeURIComponent(`columns ${stamp}`)}&verdict=${level}`);
  await expect(row).toBeVisible();

  // The store filter is a picker of known stores, and it narrows the list.
  const store = page.getByTestId("history-store");
  await expect(store.locator("option", { hasText: /^demo$/ })).toHaveCount(1);
  await store.selectOption("demo");
  await expect(page).toHaveURL(/[?&]store=demo(&|$)/);
  await expect(row).toBeVisible();
});

test("two recalls ticked in History open side by side, the older as A", async ({ page, request, unique }) => {
  const marker = unique("compare-pick");
  const ids: string[] = [];
  for (const [n, score] of [
    [1, 0.61],
    [2, 0.83],
  ] as const) {
    const posted = await request.post("/api/recalls", {
      data: {
        recalls: [
          {
            external_id: `e2e-${marker}-${n}`,
            store: "production",
            created_at: new Date(Date.now() - (3 - n) * 60_000).toISOString(),
            request: { query: `${marker} question ${n}`, k: 3 },
            response: { results: [{ memory_id: `p-${n}`, summary: `Answer ${n}`, score }] },
          },
        ],
      },
    });
    expect(posted.status()).toBe(201);
    ids.push(((await posted.json()) as { results: { id: string }[] }).results[0]!.id);
  }

  await page.goto(`/recalls?q=${encodeURIComponent(marker)}`);
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  await page.getByRole("checkbox", { name: `Select recall: ${marker} question 2` }).check();
  await expect(page.getByTestId("compare-selected")).toHaveCount(0);
  await page.getByRole("checkbox", { name: `Select recall: ${marker} question 1` }).check();
  await page.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(`/recalls/compare?a=${ids[0]}&b=${ids[1]}`);
  await expect(page.getByTestId("compare-side-a")).toContainText(`${marker} question 1`);
  await expect(page.getByTestId("compare-side-b")).toContainText(`${marker} question 2`);
});

test("at 1366 px the table fits its box: every column in view, each query at least 240 px wide on two lines", async ({
  page,
  request,
  stamp,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  // Long queries, a long store name and a source badge: the widest a row gets.
  const queries = [
    `who is on call this week for the payments platform and the kafka consumer lag pages (${stamp} one)`,
    `what went wrong with VAT on Belgian invoices last quarter, and who fixed the rounding rule (${stamp} two)`,
    `best practices (${stamp} three)`,
  ];
  const posted = await request.post("/api/recalls", {
    data: {
      recalls: queries.map((query, i) => ({
        external_id: `e2e-history-width-${stamp}-${i}`,
        store: `e2e-long-store-name-${stamp}`,
        request: { query, k: 10 },
        response: {
          results: [{ memory_id: `m-${i}`, summary: "A memory", score: 0.8 }],
          confidence: {
            level: "moderate",
            top_score: 0.8,
            prominence: 0.5,
            relative_margin: 3,
            result_count: 8,
            rationale: "e2e",
          },
          selector: { applied: true, model: "score-gap", kept: 1, dropped: 2, dropped_memory_ids: ["x-1", "x-2"] },
        },
        latency_ms: 1234.5,
      })),
    },
  });
  expect(posted.status()).toBe(201);

  await page.goto(`/recalls?q=${encodeURIComponent(stamp)}`);
  const table = page.getByTestId("history-table");
  await expect(table.getByTestId("history-row")).toHaveCount(3);
  // No sideways scroll: the table is no wider than its box.
  const overflow = await table.evaluate((el) => {
    const box = el.parentElement!;
    return { scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right };
  });
  expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
  for (const header of await table.locator("thead th").all()) {
    const rect = (await header.boundingBox())!;
    expect(rect.x + rect.width).toBeLessThanOrEqual(overflow.right + 0.5);
  }
  // Every query reads at 240 px or more, on at most two lines, the whole text on hover.
  for (const [i, link] of (await table.getByTestId("history-query").all()).entries()) {
    const rect = (await link.boundingBox())!;
    expect(rect.width, `query ${i}`).toBeGreaterThanOrEqual(240);
    const lineHeight = await link.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    expect(rect.height).toBeLessThanOrEqual(2 * lineHeight + 1);
    expect(queries).toContain(await link.getAttribute("title"));
  }
});

test("a score-gap recall's page says which kind of selector ran, its signal, gap and cut, and draws the cut", async ({
  page,
  request,
}) => {
  // Deterministic on the demo corpus (e2e/remote-and-selector.spec.ts): one clear hit, then a drop over 15 %.
  const answer = await request.post("/api/recall", {
    data: { query: "What went wrong with VAT on Belgian invoices?", selector: "gap", k: 5 },
  });
  expect(answer.status()).toBe(200);
  const { id } = (await answer.json()) as { id: string };
  await page.goto(`/recalls/${id}`);
  const panel = page.getByTestId("selector-panel");
  await expect(panel.getByTestId("selector-kind-words")).toHaveText("Offline heuristic (score gap).");
  await expect(panel.getByTestId("selector-explain")).toContainText("No model was asked.");
  await expect(panel.getByTestId("selector-gap-words").first()).toContainText(
    /It cut on raw cosine, not on the Score column: the largest drop, \d+ %, is between rank \d+ \(/,
  );
  await panel.getByTestId("selector-trace").locator("summary").click();
  await expect(panel.getByTestId("selector-gap-signal")).toContainText("raw cosine");
  await expect(panel.getByTestId("selector-gap-drop")).toHaveText(/^\d+\.\d %$/);
  await expect(panel.getByTestId("selector-gap-cut")).toContainText(/^below rank \d+ \(0\.\d{3}\), above rank \d+ \(0\.\d{3}\)$/);
  // The chart draws the cut on the raw cosine axis, named in its legend.
  const chart = page.getByTestId("score-distribution");
  await expect(chart.getByTestId("marker-selector_cut")).toContainText("selector cut");
  await expect(chart.getByTestId("marker-selector_cut")).toHaveAttribute("data-in-domain", "true");
  await expect(chart.locator('.recharts-reference-line line[stroke-dasharray="1 3"]')).toHaveCount(1);
});

test("a column hidden with the Columns control leaves the table and stays hidden after a reload; the link stays the filters", async ({
  page,
  request,
  stamp,
}) => {
  const posted = await request.post("/api/recalls", {
    data: {
      recalls: [
        {
          external_id: `e2e-history-columns-${stamp}`,
          store: "production",
          request: { query: `which columns does the history show (${stamp})`, k: 5 },
          response: { results: [{ memory_id: "c-1", summary: "A memory", score: 0.7 }] },
          latency_ms: 42,
        },
      ],
    },
  });
  expect(posted.status()).toBe(201);

  await page.goto(`/recalls?q=${stamp}`);
  const table = page.getByTestId("history-table");
  const row = table.getByTestId("history-row");
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  const heading = (name: string) => table.locator("thead th").filter({ hasText: new RegExp(`^${name}$`, "i") });
  await expect(heading("Latency")).toHaveCount(1);
  const cells = await row.locator("td").count();

  const picker = page.getByTestId("history-columns");
  const toggle = picker.getByRole("button", { name: /^Columns/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  // The query is the row's link: it cannot be hidden.
  const query = picker.getByRole("checkbox", { name: /^Query/ });
  await expect(query).toBeChecked();
  await expect(query).toBeDisabled();

  // By keyboard: Space on a checkbox hides its column at once.
  await picker.getByRole("checkbox", { name: "Latency", exact: true }).focus();
  await page.keyboard.press("Space");
  await expect(heading("Latency")).toHaveCount(0);
  await expect(row.locator('td[data-caption="latency"]')).toHaveCount(0);
  await expect(row.locator("td")).toHaveCount(cells - 1);
  await picker.getByRole("checkbox", { name: "Prominence", exact: true }).uncheck();
  await expect(heading("Prominence")).toHaveCount(0);
  await expect(row.locator("td")).toHaveCount(cells - 2);
  await expect(toggle).toContainText("2 hidden");
  // Escape closes the list and gives the focus back to the button.
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
  // The choice is not in the link: a shared URL is the filters alone.
  expect(new URL(page.url()).search).toBe(`?q=${stamp}`);

  await page.reload();
  await expect(row).toHaveCount(1);
  await expect(heading("Latency")).toHaveCount(0);
  await expect(heading("Prominence")).toHaveCount(0);
  await expect(row.locator("td")).toHaveCount(cells - 2);
  await expect(row.getByTestId("history-query")).toBeVisible();

  // "Show all" brings every column back.
  await toggle.click();
  await picker.getByRole("button", { name: "Show all" }).click();
  await expect(heading("Latency")).toHaveCount(1);
  await expect(row.locator("td")).toHaveCount(cells);
  await expect(toggle).toBeFocused();
});
