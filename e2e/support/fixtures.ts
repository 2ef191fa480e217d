import { test as base, expect, type Locator, type Page } from "@playwright/test";

/**
 * The e2e fixtures (docs/ARCHITECTURE.md "Tests"): specs import `test` and `expect` from here
 * instead of copying helpers. The server's database is shared by every spec of a run, so texts
 * a test searches for carry a per-test stamp.
 */

export interface RecallOptions {
  store?: string;
  selector?: string;
  mode?: string;
}

export interface RecallConsole {
  /** Opens the console, picks the options and submits the query (does not wait for the answer). */
  submit(query: string, options?: RecallOptions): Promise<void>;
  /** Waits until the answer is logged (the URL carries its id) and returns the result panel. */
  logged(): Promise<Locator>;
  /** `submit`, `logged`, and the panel showing this query: the result panel and the recall's id. */
  run(query: string, options?: RecallOptions): Promise<{ result: Locator; id: string }>;
}

interface Fixtures {
  recallConsole: RecallConsole;
  /** A short token unique to this test, for texts that must not match earlier runs. */
  stamp: string;
  /** A token no other memory holds, `label` first so a failure reads well. */
  unique: (label: string) => string;
}

function recallConsoleOf(page: Page): RecallConsole {
  const submit = async (query: string, options: RecallOptions = {}) => {
    await page.goto("/");
    if (options.store) await page.getByLabel("Store").selectOption(options.store);
    if (options.selector) await page.getByLabel("Selector").selectOption(options.selector);
    if (options.mode) await page.getByLabel("Search mode").selectOption(options.mode);
    const box = page.getByRole("textbox", { name: "Query" });
    await box.fill(query);
    await box.press("Enter");
  };
  const logged = async () => {
    await expect(page).toHaveURL(/\?recall=[0-9a-f-]{36}$/, { timeout: 30_000 });
    return page.getByTestId("recall-result");
  };
  return {
    submit,
    logged,
    async run(query, options) {
      await submit(query, options);
      const result = await logged();
      await expect(result.getByTestId("recall-query")).toHaveText(query);
      return { result, id: new URL(page.url()).searchParams.get("recall")! };
    },
  };
}

export const test = base.extend<Fixtures>({
  recallConsole: async ({ page }, use) => {
    await use(recallConsoleOf(page));
  },
  // Playwright reads a fixture's dependencies from its destructuring: none here.
  stamp: async ({}, use) => {
    await use(`${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`);
  },
  unique: async ({}, use) => {
    let counter = 0;
    await use((label) => {
      counter += 1;
      return `${label}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
    });
  },
});

export { expect };
