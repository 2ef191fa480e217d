import { expect, test } from "@playwright/test";

const SECTIONS = [
  { label: "Console", path: "/", heading: "Recall console" },
  { label: "History", path: "/recalls", heading: "Recall history" },
  { label: "Insights", path: "/insights", heading: "Insights" },
  { label: "Memories", path: "/memories", heading: "Memories" },
  { label: "Evaluate", path: "/evaluate", heading: "Evaluate" },
  { label: "Capture", path: "/capture", heading: "Capture" },
  { label: "Profiles", path: "/profiles", heading: "Threshold profiles" },
  { label: "Settings", path: "/settings", heading: "Settings" },
];

test("health reports the database and the embedder @postgres", async ({ request }, testInfo) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({
    status: "ok",
    database: testInfo.project.name,
    embedder: expect.any(String),
  });
});

test("every nav entry renders its page and marks itself current @postgres", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const section of SECTIONS) {
    await nav.getByRole("link", { name: section.label }).click();
    await expect(page).toHaveURL(section.path);
    await expect(page.getByRole("heading", { level: 1, name: section.heading })).toBeVisible();
    await expect(nav.getByRole("link", { name: section.label })).toHaveAttribute("aria-current", "page");
    await expect(page).toHaveTitle(`${section.label} · Recall Inspector`);
  }
});

test("the header is reachable by keyboard", async ({ page }) => {
  await page.goto("/insights");
  await page.keyboard.press("Tab"); // skip link
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: /Recall Inspector/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Recall console" })).toBeVisible();
});

test("unknown API routes answer with the error envelope", async ({ request }) => {
  const response = await request.post("/api/does-not-exist", { data: {} });
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({
    error: "not_found",
    message: expect.stringContaining("/api/does-not-exist"),
    details: {},
  });
});

test("an unknown page explains itself", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("the sign-in page says first that sign-in is off, and asks for no password", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByText("Sign-in is off on this server")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await page.getByRole("link", { name: "Open the console" }).click();
  await expect(page).toHaveURL("/");
});
