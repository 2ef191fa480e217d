import { expect, test } from "./support/fixtures";

/**
 * Saved views: filters set on History are saved under a name (in the database), and the view —
 * from the picker or from its own link /views/{id} — reopens the same filters.
 */
test("a saved view reopens the same filters, from the picker and from its own link @postgres", async ({ page, stamp }) => {
  const name = `Weak console recalls ${stamp}`;
  await page.goto(`/recalls?source=console&level=low,none&q=${encodeURIComponent(`view ${stamp}`)}`);
  const levels = page.getByTestId("history-level");
  await expect(levels.getByRole("checkbox", { name: "Low" })).toBeChecked();

  const views = page.getByTestId("saved-views");
  await views.getByRole("button", { name: "Save view…" }).click();
  await views.getByLabel("View name").fill(name);
  await views.getByRole("button", { name: "Save", exact: true }).click();
  // Saved: the picker shows it as the view in effect.
  const picker = views.getByLabel("Saved views");
  await expect(picker.locator("option:checked")).toHaveText(name, { timeout: 15_000 });

  // Start over, then open the view from the picker.
  await page.goto("/recalls");
  await expect(levels.getByRole("checkbox", { name: "Low" })).not.toBeChecked();
  await picker.selectOption({ label: name });
  await expect(page).toHaveURL(/[?&]source=console(&|$)/);
  await expect(page).toHaveURL(/[?&]level=low%2Cnone(&|$)/);
  await expect(levels.getByRole("checkbox", { name: "Low" })).toBeChecked();
  await expect(levels.getByRole("checkbox", { name: "None" })).toBeChecked();
  await expect(levels.getByRole("checkbox", { name: "High" })).not.toBeChecked();
  await expect(page.getByLabel("Source")).toHaveValue("console");
  await expect(page.getByRole("searchbox", { name: "Search queries" })).toHaveValue(`view ${stamp}`);

  // Its own link opens the same filters.
  const href = await views.getByRole("link", { name: "Link" }).getAttribute("href");
  expect(href).toMatch(/^\/views\/[0-9a-f-]{36}$/);
  await page.goto("/recalls");
  await page.goto(href!);
  await expect(page).toHaveURL(/\/recalls\?/);
  await expect(levels.getByRole("checkbox", { name: "None" })).toBeChecked();
  await expect(page.getByLabel("Source")).toHaveValue("console");
  await expect(picker.locator("option:checked")).toHaveText(name);

  // Deleted, it is gone from the picker.
  await views.getByRole("button", { name: `Delete the saved view ${name}` }).click();
  await expect(picker.locator("option", { hasText: name })).toHaveCount(0);
});
