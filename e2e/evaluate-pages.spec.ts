import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The evaluation pages' addresses: an unknown or malformed run id is a 404 page answered with
 * status 404 (as an unknown recall is); every compare page puts the older as A (the baseline)
 * whichever order its URL or the ticked boxes name them, and says so; an API failure reads as
 * words to act on, with the envelope's code beside them rather than the API's own wording.
 */

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function postJson(request: APIRequestContext, url: string, data: unknown) {
  const response = await request.post(url, { data, timeout: 90_000 });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** Two runs of a one-query set, the first started first (the older). Their progress does not matter here. */
async function twoRuns(request: APIRequestContext, stamp: string): Promise<{ older: string; newer: string }> {
  const set = await postJson(request, "/api/datasets", {
    name: `e2e pages ${stamp}`,
    items: [{ query: `what is Maya allergic to? ${stamp}`, relevant: [] }],
  });
  const older = (await postJson(request, "/api/eval-runs", { dataset_id: set.id, k: 3 })).id as string;
  const newer = (await postJson(request, "/api/eval-runs", { dataset_id: set.id, k: 5 })).id as string;
  return { older, newer };
}

test("an unknown or malformed run id answers 404 with a page that offers a way on", async ({ page }) => {
  for (const id of [UNKNOWN, "not-a-run-id"]) {
    const response = await page.goto(`/evaluate/runs/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Evaluation run not found" })).toBeVisible();
    await expect(page.getByText("Loading the run…")).toHaveCount(0);
  }
  await page.getByTestId("run-not-found").getByRole("link", { name: "Evaluate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Evaluate" })).toBeVisible();
});

test("a known run's page answers 200", async ({ page, request, stamp }) => {
  // The first recall of a cold server loads the store and the embedder.
  test.setTimeout(180_000);
  const { older } = await twoRuns(request, stamp);
  const response = await page.goto(`/evaluate/runs/${older}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Evaluation run" })).toBeVisible();
  await expect(page.getByTestId("run-status")).toBeVisible({ timeout: 30_000 });
});

test("compare runs: the older run is A whichever order the URL or the ticks name them", async ({ page, request, stamp }) => {
  // The first recall of a cold server loads the store and the embedder.
  test.setTimeout(180_000);
  const { older, newer } = await twoRuns(request, stamp);

  // A URL naming the newer as A is sent to the swapped one.
  await page.goto(`/evaluate/compare?a=${newer}&b=${older}`);
  await expect(page).toHaveURL(new RegExp(`/evaluate/compare\\?a=${older}&b=${newer}$`));
  await expect(page.getByTestId("ab-convention")).toHaveText(
    "A = the baseline (the older run), B = the change (the newer run); deltas are B − A.",
  );
  await expect(page.getByTestId("delta-table")).toContainText("B − A", { timeout: 30_000 });

  // Ticked newer first, the link still names the older as A.
  await page.goto("/evaluate");
  await page.getByRole("checkbox", { name: `Compare run ${newer.slice(0, 8)}` }).check();
  await page.getByRole("checkbox", { name: `Compare run ${older.slice(0, 8)}` }).check();
  await expect(page.getByTestId("compare-link")).toHaveAttribute("href", `/evaluate/compare?a=${older}&b=${newer}`);
});

test("compare recalls: the older recall is A whichever order the URL names them", async ({ page, request, stamp }) => {
  // The first recall of a cold server loads the store and the embedder.
  test.setTimeout(180_000);
  const first = await postJson(request, "/api/recall", { query: `what is Maya allergic to? ${stamp}`, k: 5 });
  const second = await postJson(request, "/api/recall", { query: `what is Maya allergic to? ${stamp}`, k: 10 });
  await page.goto(`/recalls/compare?a=${second.id}&b=${first.id}`);
  await expect(page).toHaveURL(new RegExp(`/recalls/compare\\?a=${first.id}&b=${second.id}$`));
  await expect(page.getByTestId("ab-convention")).toHaveText(
    "A = the baseline (the older recall), B = the change (the newer recall); deltas are B − A.",
  );
  await expect(page.getByTestId("compare-side-a")).toContainText("baseline");
  await expect(page.getByTestId("compare-side-a")).toContainText("k=5");
  await expect(page.getByTestId("compare-side-b")).toContainText("change");
  await expect(page.getByTestId("compare-side-b")).toContainText("k=10");
});

test("an API failure reads as words to act on, its code beside them", async ({ page }) => {
  // A malformed recall id in the console's address: the API answers 422 validation_failed.
  await page.goto("/?recall=not-a-uuid");
  const alert = page.getByRole("alert").filter({ hasText: "not-a-uuid" });
  await expect(alert).toContainText("This link is not valid: a recall id is a UUID.");
  await expect(alert).not.toContainText("The request params is invalid");

  // Unknown runs on the compare page: the server's sentence, with the code as secondary text.
  await page.goto(`/evaluate/compare?a=${UNKNOWN}&b=00000000-0000-4000-8000-000000000001`);
  const failed = page.getByRole("alert").filter({ hasText: "Could not load run" });
  await expect(failed).toContainText("was not found");
  await expect(failed.getByTestId("error-code")).toHaveText("(not_found · HTTP 404)");
  await expect(failed.getByRole("link", { name: "Pick two runs on Evaluate" })).toBeVisible();
});
