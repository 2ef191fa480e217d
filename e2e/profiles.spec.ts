import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Threshold profiles (lib/calibration/README.md "Threshold profiles"): a profile assigned to a store
 * in the UI judges the console's recalls beside the reference rules, with the k-sensitivity
 * strip; a what-if edited live flips a logged recall, and the flip opens its recall page.
 */

// An on-topic query of the demo set (data/demo/queries.json).
const ON_TOPIC = "What went wrong with VAT on Belgian invoices?";

/** The first recall of a cold server waits for the demo corpus to embed (minutes on a loaded machine). */
async function warmUp(request: APIRequestContext) {
  const res = await request.post("/api/recall", { data: { query: "warm up the embedder", k: 5 }, timeout: 240_000 });
  expect(res.status()).toBe(200);
}

test.describe.configure({ timeout: 300_000 });

test("a profile assigned to the embedded store shows both levels and the k-sensitivity strip in the console", async ({
  page,
  recallConsole,
  stamp,
}) => {
  const name = `e2e-${stamp}`;
  const created = await page.request.post("/api/profiles", {
    data: {
      name,
      thresholds: { abs_low_cosine: 0.2, abs_moderate_cosine: 0.2, moderate_prominence: 0, low_prominence: -0.12 },
      pool_size: 10,
      description: "made by e2e/profiles.spec.ts",
    },
  });
  expect(created.status()).toBe(201);
  await warmUp(page.request);
  try {
    await page.goto("/profiles");
    const select = page.getByLabel("Profile for demo");
    await expect(select.locator("option", { hasText: name })).toHaveCount(1, { timeout: 30_000 });
    await select.selectOption(name);
    await select.locator("xpath=ancestor::td").getByRole("button", { name: "Assign" }).click();
    await expect(page.getByTestId("store-profile-demo")).toHaveText(`uses ${name}`);

    const { result } = await recallConsole.run(ON_TOPIC);
    const levels = result.getByTestId("profile-levels");
    const both = levels.getByTestId("both-levels");
    await expect(both).toContainText("Reference rules:");
    await expect(both).toContainText(`${name} profile:`);
    await expect(both.getByTestId("level-badge").first()).toHaveAttribute("data-level", /^(high|moderate|low|none)$/);
    await expect(levels.getByTestId("profile-level").getByTestId("level-badge")).toHaveAttribute(
      "data-level",
      /^(high|moderate|low|none)$/,
    );
    await expect(levels).toContainText("The profile judged the first 10 merged candidates, whatever k");

    const strip = levels.getByTestId("k-sensitivity");
    await expect(strip).toBeVisible();
    for (const k of [5, 10, 20]) {
      await expect(strip.getByTestId(`k-${k}-level`).getByTestId("level-badge")).toHaveAttribute(
        "data-level",
        /^(high|moderate|low|none)$/,
      );
    }
    // The profile's row beside the reference's, and a sentence either way about k.
    await expect(strip.getByRole("rowheader", { name })).toBeVisible();
    await expect(strip.getByText(/The verdict (depends on k|is the same at k = 5, 10 and 20)/)).toBeVisible();

    // The chart can draw the profile's thresholds instead of the reference's.
    await levels.getByRole("radio", { name }).check();
    await expect(levels.getByRole("radio", { name })).toBeChecked();
    await expect(result.getByTestId("score-distribution")).toBeVisible();
  } finally {
    // Other specs expect the embedded store's shipped profile.
    const restored = await page.request.put("/api/stores/demo/profile", { data: { profile: "use-lite" } });
    expect(restored.status()).toBe(200);
  }
});

test("a what-if edited live flips a logged recall, keeps the edits in its link, and the flip opens the recall @postgres", async ({
  page,
}) => {
  await warmUp(page.request);
  // Only this test's recall: logged after `from`, and matching the query. No margin before it:
  // the test before this one recalls the same query, and on a fast machine less than a second
  // earlier (the server and the browser share this machine's clock).
  const from = new Date().toISOString();
  const posted = await page.request.post("/api/recall", { data: { query: ON_TOPIC, k: 5 } });
  expect(posted.status()).toBe(200);
  const recall = (await posted.json()) as {
    id: string;
    confidence: { level: string };
    profile_confidence?: { level: string | null } | null;
  };
  const worth = recall.confidence.level === "high" || recall.confidence.level === "moderate";
  const filters = `q=Belgian invoices&from=${from}`;

  await page.goto(`/what-if?profile=default&filters=${encodeURIComponent(filters)}`);
  // The field reads "Which recalls", with its URL name `filters` under it.
  await expect(page.getByLabel("Which recalls filters", { exact: true })).toHaveValue(filters);
  await page.getByRole("button", { name: "Run what-if" }).click();
  const outcome = page.getByTestId("whatif-result");
  // What-if's baseline is the verdict the store gave (its profile's level); the reference
  // recomputed from the stored pool is the reference level that was logged, so it flips exactly
  // when the store's verdict and the reference disagreed on this recall.
  const verdictLevel = recall.profile_confidence?.level ?? recall.confidence.level;
  const flips = verdictLevel === recall.confidence.level ? "0" : "1";
  await expect(outcome.getByTestId("flip-count")).toHaveText(flips, { timeout: 60_000 });
  await expect(outcome.getByTestId(`mix-${recall.confidence.level}`)).toContainText("1");
  await expect(page).toHaveURL(/run=1/);

  // Edit the constants in place so the verdict must change; a value out of band order is refused in words first.
  // Each field is labeled in words with the constant's name under it ("Cosine guard for moderate abs_low_cosine").
  const field = (key: string) => page.getByLabel(new RegExp(` ${key}$`));
  if (worth) {
    // Nothing below a cosine of 1 is worth reading.
    await field("abs_low_cosine").fill("1");
    await expect(page.getByText("abs_moderate_cosine (0.5) must be ≥ abs_low_cosine (1).")).toBeVisible();
    await expect(page.getByRole("button", { name: "Run again" })).toBeDisabled();
    await field("strong_abs_cosine").fill("1");
    await field("abs_moderate_cosine").fill("1");
  } else {
    // Every usable pool is worth reading.
    await field("abs_moderate_cosine").fill("-1");
    await field("abs_low_cosine").fill("-1");
    await field("low_prominence").fill("-1");
    await field("moderate_prominence").fill("-0.9");
  }
  await expect(page.getByRole("button", { name: "Run again" })).toBeEnabled();
  // No click: the edit reruns it.
  await expect(outcome.getByTestId("flip-count")).toHaveText("1", { timeout: 60_000 });
  await expect(outcome.getByRole("heading", { name: /^Under default with / })).toBeVisible();
  await expect(outcome.getByTestId("flips")).toContainText("(verdict changes)");
  const edited = worth ? /strong_abs_cosine=1&abs_moderate_cosine=1&abs_low_cosine=1/ : /abs_low_cosine=-1/;
  await expect(page).toHaveURL(edited);
  const shared = page.url();

  // The flipped recall and the filtered set open in History.
  await expect(outcome.getByRole("link", { name: "Open these recalls in History" })).toHaveAttribute(
    "href",
    `/recalls?${new URLSearchParams({ q: "Belgian invoices", from })}`,
  );
  const link = outcome.getByTestId("flip-link");
  await expect(link).toHaveAttribute("data-recall-id", recall.id);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/recalls/${recall.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Logged recall" })).toBeVisible();
  await expect(page.getByTestId("recall-result")).toHaveAttribute("data-recall-id", recall.id);

  // The shared link opens with the edits in their fields and reruns on its own.
  await page.goto(shared);
  await expect(field(worth ? "abs_low_cosine" : "moderate_prominence")).toHaveValue(worth ? "1" : "-0.9");
  await expect(page.getByTestId("whatif-result").getByTestId("flip-count")).toHaveText("1", { timeout: 60_000 });
  await page.getByRole("button", { name: "Reset to default" }).click();
  await expect(page.getByTestId("whatif-result").getByTestId("flip-count")).toHaveText("0", { timeout: 60_000 });
  await expect(page).not.toHaveURL(/abs_low_cosine/);
});
