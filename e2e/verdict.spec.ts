import type { APIRequestContext } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./support/fixtures";

/**
 * The store's verdict (lib/calibration/README.md "Threshold profiles"): the console leads
 * with the store's calibrated probability and level, the reference level beside it as what the
 * agent saw; a profile fitted from an evaluation run's labels and assigned to the store changes
 * the headline; What-if of the profile in use changes nothing and names its recalls by query.
 */

interface DemoQuery {
  id: string;
  query: string;
  kind: string;
  relevant: string[];
}

const demo = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "demo", "queries.json"), "utf8")) as DemoQuery[];
// An on-topic query of the demo set.
const ON_TOPIC = "What went wrong with VAT on Belgian invoices?";

/** The first recall of a cold server waits for the demo corpus to embed (minutes on a loaded machine). */
async function warmUp(request: APIRequestContext) {
  const res = await request.post("/api/recall", { data: { query: "warm up the embedder", k: 5 }, timeout: 240_000 });
  expect(res.status()).toBe(200);
}

test.describe.configure({ timeout: 300_000 });

test("the console leads with the store's verdict and shows the reference level beside it", async ({ page, recallConsole }) => {
  await warmUp(page.request);
  const { result } = await recallConsole.run(ON_TOPIC);
  const panel = result.getByTestId("confidence-panel");
  const verdict = panel.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-source", "store");
  await expect(verdict.getByTestId("level-badge")).toHaveAttribute("data-level", /^(high|moderate|low|none)$/);
  await expect(verdict.getByTestId("verdict-probability")).toHaveText(
    /^(<1|>99|\d{1,3})% likely that something relevant is stored/,
  );
  await expect(verdict.getByTestId("verdict-calibration")).toContainText("use-lite");
  await expect(panel.getByTestId("reference-verdict")).toContainText("What the reference rules say — what the agent saw");
  await expect(panel.getByTestId("reference-verdict").getByTestId("level-badge")).toHaveAttribute(
    "data-level",
    /^(high|moderate|low|none)$/,
  );
});

test("a profile fitted from an evaluation run and assigned to the store changes the headline", async ({
  page,
  recallConsole,
  stamp,
}) => {
  await warmUp(page.request);
  const request = page.request;
  const set = await request.post("/api/datasets", {
    data: {
      name: `e2e verdict ${stamp}`,
      store: "demo",
      items: demo.map((q) => ({ id: q.id, query: q.query, kind: q.kind, relevant: q.relevant })),
    },
  });
  expect(set.status()).toBe(201);
  const datasetId = ((await set.json()) as { id: string }).id;
  const started = await request.post("/api/eval-runs", { data: { dataset_id: datasetId, store: "demo", k: 5 } });
  expect(started.status()).toBe(202);
  const runId = ((await started.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await request.get(`/api/eval-runs/${runId}`)).json()) as { status: string }).status, {
      timeout: 240_000,
      intervals: [500, 1000, 2000],
    })
    .toBe("done");

  // The report's headline states present vs off-topic apart from near-misses, and how true the probability is.
  await page.goto(`/evaluate/runs/${runId}`);
  const metrics = page.getByTestId("metrics");
  await expect(metrics).toContainText("balanced accuracy, present vs off-topic", { timeout: 60_000 });
  await expect(metrics).toContainText("near-misses read worth reading");
  await expect(metrics).toContainText("ECE (calibration error)");
  await expect(page.getByTestId("calibration").getByTestId("reliability")).toBeVisible();
  await expect(page.getByTestId("calibration").getByTestId("p-present-by-level")).toBeVisible();

  const name = `e2e-verdict-${stamp}`;
  const fit = await request.post("/api/profiles/fit", { data: { run_id: runId, name } });
  expect(fit.status()).toBe(200);
  const fitted = (await fit.json()) as { verdict: { model: { method: string; estimate: { balanced_accuracy: number } } } };
  expect(fitted.verdict.model.method).toBe("labels");
  expect(fitted.verdict.model.estimate.balanced_accuracy).toBeGreaterThan(0.5);

  try {
    const assigned = await request.put("/api/stores/demo/profile", { data: { profile: name } });
    expect(assigned.status()).toBe(200);
    const { result } = await recallConsole.run(ON_TOPIC);
    const verdict = result.getByTestId("confidence-panel").getByTestId("verdict");
    await expect(verdict).toHaveAttribute("data-source", "store");
    await expect(verdict.getByTestId("verdict-calibration")).toContainText(name);
    await expect(verdict.getByTestId("verdict-calibration")).toContainText("of this store's labels");
  } finally {
    // Other specs expect the demo store's shipped profile.
    const restored = await request.put("/api/stores/demo/profile", { data: { profile: "use-lite" } });
    expect(restored.status()).toBe(200);
  }
});

test("What-if of the profile in use changes no recall, and names changed recalls by their query", async ({ page }) => {
  await warmUp(page.request);
  const from = new Date().toISOString();
  const posted = await page.request.post("/api/recall", { data: { query: ON_TOPIC, k: 5 } });
  expect(posted.status()).toBe(200);
  const filters = `q=Belgian invoices&from=${from}`;
  await page.goto(`/what-if?profile=use-lite&filters=${encodeURIComponent(filters)}`);
  await page.getByRole("button", { name: "Run what-if" }).click();
  const outcome = page.getByTestId("whatif-result");
  await expect(outcome.getByTestId("flip-count")).toHaveText("0", { timeout: 60_000 });

  // Under the reference rules the same recall may change; if it does, it is listed by its query.
  await page.goto(`/what-if?profile=default&filters=${encodeURIComponent(filters)}`);
  await page.getByRole("button", { name: "Run what-if" }).click();
  const reference = page.getByTestId("whatif-result");
  await expect(reference.getByTestId("flip-count")).toHaveText(/^[01]$/, { timeout: 60_000 });
  if ((await reference.getByTestId("flip-count").textContent()) === "1") {
    await expect(reference.getByTestId("flip-query")).toHaveText(`“${ON_TOPIC}”`);
  }
});

/** A profile fitted from an evaluation run of the demo set (its labels), as an API client would make it. */
async function fitFromDemoRun(request: APIRequestContext, stamp: string, name: string) {
  const set = await request.post("/api/datasets", {
    data: {
      name: `e2e verdict pages ${stamp}`,
      store: "demo",
      items: demo.map((q) => ({ id: q.id, query: q.query, kind: q.kind, relevant: q.relevant })),
    },
  });
  expect(set.status()).toBe(201);
  const started = await request.post("/api/eval-runs", {
    data: { dataset_id: ((await set.json()) as { id: string }).id, store: "demo", k: 5 },
  });
  expect(started.status()).toBe(202);
  const runId = ((await started.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await request.get(`/api/eval-runs/${runId}`)).json()) as { status: string }).status, {
      timeout: 240_000,
      intervals: [500, 1000, 2000],
    })
    .toBe("done");
  const fit = await request.post("/api/profiles/fit", { data: { run_id: runId, name } });
  expect(fit.status()).toBe(200);
}

test("with the fitted profile assigned, History and Insights lead with its verdict and keep the reference beside it", async ({
  page,
  stamp,
}) => {
  await warmUp(page.request);
  const request = page.request;
  const name = `e2e-verdict-pages-${stamp}`;
  await fitFromDemoRun(request, stamp, name);
  const query = `${ON_TOPIC} (verdict pages ${stamp})`;
  let recall: {
    id: string;
    confidence: { level: string };
    profile_confidence?: { profile: string; level: string; probability?: number };
  };
  const assigned = await request.put("/api/stores/demo/profile", { data: { profile: name } });
  expect(assigned.status()).toBe(200);
  try {
    const res = await request.post("/api/recall", { data: { query, k: 5 } });
    expect(res.status()).toBe(200);
    recall = (await res.json()) as typeof recall;
  } finally {
    // Other specs expect the demo store's shipped profile.
    const restored = await request.put("/api/stores/demo/profile", { data: { profile: "use-lite" } });
    expect(restored.status()).toBe(200);
  }
  const verdict = recall.profile_confidence!;
  expect(verdict.profile).toBe(name);
  expect(typeof verdict.probability).toBe("number");

  // History: the row's level column leads with the profile's verdict and its probability; the
  // reference level is beside it as words, not as a second badge.
  await page.goto(`/recalls?q=${encodeURIComponent(`verdict pages ${stamp}`)}`);
  const row = page.locator(`[data-testid="history-row"][data-recall-id="${recall.id}"]`);
  const cell = row.getByTestId("history-verdict-cell");
  await expect(cell).toHaveAttribute("data-by", "profile", { timeout: 30_000 });
  await expect(cell.getByTestId("level-badge")).toHaveCount(1);
  await expect(cell.getByTestId("level-badge")).toHaveAttribute("data-level", verdict.level);
  await expect(cell.getByTestId("history-verdict-probability")).toHaveText(/^(<1|>99|\d{1,3})%$/);
  await expect(cell.getByTestId("history-reference-level")).toHaveText(`reference: ${recall.confidence.level}`);
  await expect(cell).toHaveAttribute("title", new RegExp(`^The store's verdict under profile ${name}: ${verdict.level}`));

  // The verdict filter finds it under the profile's level.
  await page.goto(`/recalls?q=${encodeURIComponent(`verdict pages ${stamp}`)}&verdict=${verdict.level}`);
  await expect(page.getByTestId("history-verdict").getByRole("checkbox", { checked: true })).toHaveCount(1);
  await expect(row).toBeVisible();
  await expect(page.getByTestId("history-split")).toContainText("By the store's verdict");

  // Insights, by default, counts the recall under the store's verdict (the profile's level): the
  // only recall this new profile judged.
  await page.goto(`/insights?range=24h&profile=${encodeURIComponent(name)}`);
  await expect(page.getByRole("heading", { name: "Level mix: the store's verdict" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("level-judge")).toHaveValue("");
  const levelColumn = ["high", "moderate", "low", "none"].indexOf(verdict.level) + 2;
  const verdictRow = page.locator('[data-testid="judge-row"][data-judge="verdict"]');
  await expect(verdictRow.locator("td").nth(1)).toHaveText("1");
  await expect(verdictRow.locator("td").nth(levelColumn)).toHaveText("100%1 of 1");
  const weak = verdict.level === "low" || verdict.level === "none" ? 1 : 0;
  await expect(page.getByTestId("stat-weak-hit").getByTestId("stat-detail")).toContainText(
    `${weak} of 1 recall judged none or low by the store's verdict`,
  );
});
