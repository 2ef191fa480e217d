import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Insights by threshold profile (lib/calibration/README.md "Threshold profiles"): recalls the
 * embedded store judged with a profile of this run only are filtered to by `profile`, shown under
 * their judge with agreement rates, drawn as percentile bands, and the level chart — the store's
 * verdict by default — switches to the reference rules or the profile's levels, all in the URL.
 */

test.describe.configure({ timeout: 300_000 });

// Two on-topic queries of the demo set (data/demo/queries.json) and one it cannot answer.
const QUERIES = ["What went wrong with VAT on Belgian invoices?", "what is Maya allergic to?", "best pizza topping on Mars"];

async function recall(request: APIRequestContext, query: string) {
  // The first recall of a cold server waits for the demo corpus to embed (minutes on a loaded machine).
  const res = await request.post("/api/recall", { data: { query, k: 5 }, timeout: 240_000 });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: string; profile_confidence?: { profile: string } };
}

test("recalls judged by a profile: filtered, grouped under their judge, with bands and the profile's level mix", async ({
  page,
  stamp,
}) => {
  const name = `e2e-ins-${stamp}`;
  const created = await page.request.post("/api/profiles", {
    data: {
      name,
      thresholds: { abs_low_cosine: 0.2, abs_moderate_cosine: 0.3, moderate_prominence: 0, low_prominence: -0.12 },
      pool_size: 10,
      description: "made by e2e/insights-profiles.spec.ts",
    },
  });
  expect(created.status()).toBe(201);
  await recall(page.request, "warm up the embedder");
  const assigned = await page.request.put("/api/stores/demo/profile", { data: { profile: name } });
  expect(assigned.status()).toBe(200);
  try {
    for (const query of QUERIES) expect((await recall(page.request, query)).profile_confidence?.profile).toBe(name);
  } finally {
    // Other specs expect the embedded store's shipped profile.
    const restored = await page.request.put("/api/stores/demo/profile", { data: { profile: "use-lite" } });
    expect(restored.status()).toBe(200);
  }

  await page.goto(`/insights?range=24h&profile=${encodeURIComponent(name)}`);
  await expect(page.getByTestId("insights-scope")).toContainText(`judged by profile ${name}`);
  await expect(page.getByTestId("stat-recalls").getByTestId("stat-value")).toHaveText("3");

  // Under each judge: the store's verdict first, the reference rules, and this profile, each over these 3 recalls.
  const judges = page.getByTestId("judges");
  await expect(judges.getByTestId("judge-row")).toHaveCount(3);
  await expect(judges.getByTestId("judge-row").first()).toHaveAttribute("data-judge", "verdict");
  const mine = judges.locator(`[data-testid="judge-row"][data-profile="${name}"]`);
  await expect(mine.locator("td").nth(1)).toHaveText("3");
  await expect(judges.locator('[data-testid="judge-row"][data-judge="reference"]').locator("td").nth(1)).toHaveText("3");
  await expect(judges.locator('[data-testid="judge-row"][data-judge="verdict"]').locator("td").nth(1)).toHaveText("3");
  // No selector ran and nothing is labeled: both rates say so rather than 0%.
  await expect(mine.getByTestId("judge-selector")).toContainText("no data");
  await expect(mine.getByTestId("judge-labels")).toContainText("no data");

  // The numbers behind the levels: one series (embedded, raw cosine), both charts drawn.
  const bands = page.getByTestId("bands");
  await expect(bands).toContainText("Top score (raw cosine)");
  await expect(bands.getByTestId("bands-top-score").locator(".recharts-area")).toHaveCount(2, { timeout: 30_000 });
  await expect(bands.getByTestId("bands-prominence").getByTestId("chart-empty")).toHaveCount(0);

  // The level chart leads with the store's verdict; the reference rules and the profile are a choice away, kept in the URL.
  await expect(page.getByRole("heading", { name: "Level mix: the store's verdict" })).toBeVisible();
  await expect(page.getByTestId("level-judge")).toHaveValue("");
  await page.getByTestId("level-judge").selectOption("_reference");
  await expect(page).toHaveURL(/[?&]judge=_reference(&|$)/);
  await expect(page.getByRole("heading", { name: "Level mix: the reference rules" })).toBeVisible();
  await page.getByTestId("level-judge").selectOption(name);
  await expect(page).toHaveURL(new RegExp(`judge=${name}`));
  await expect(page.getByRole("heading", { name: `Level mix under profile ${name}` })).toBeVisible();
  // A link naming the profile (as links made before the verdict did) still opens it.
  await page.goto(`/insights?range=24h&profile=${encodeURIComponent(name)}&judge=${encodeURIComponent(name)}`);
  await expect(page.getByRole("heading", { name: `Level mix under profile ${name}` })).toBeVisible();

  // A profile level filter narrows the counts to that level's recalls, and is in the URL too.
  const now = Date.now();
  const api = await page.request.get(
    `/api/insights?from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}&profile=${encodeURIComponent(name)}`,
  );
  const answer = (await api.json()) as { judges: { judge: string; profile: string | null; low: number }[] };
  const low = answer.judges.find((j) => j.profile === name)!.low;
  await page.getByTestId("insights-profile-level").selectOption("low");
  await expect(page).toHaveURL(/profile_level=low/);
  await expect(page.getByTestId("insights-scope")).toContainText("profile level low");
  if (low > 0) await expect(page.getByTestId("stat-recalls").getByTestId("stat-value")).toHaveText(String(low));
  else await expect(page.getByTestId("insights-empty")).toBeVisible();

  // The profile's row opens its recalls in History.
  await page.getByTestId("insights-profile-level").selectOption("");
  await expect(page).not.toHaveURL(/profile_level=/);
  await judges.locator(`[data-testid="judge-row"][data-profile="${name}"]`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/recalls\\?.*profile=${name}`));
});
