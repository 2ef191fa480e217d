import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README's Pages table lists every page of the app, one row each, and nothing else: a page
 * added under app/ without its line (or a row left behind by a removed page) fails here.
 */

const ROOT = path.join(import.meta.dirname, "..");

/** Every `page.tsx` under app/ as its URL: `[id]` reads `{id}`, route groups `(x)` add no segment. */
function pageRoutes(dir: string, prefix = ""): string[] {
  const routes: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      // app/api holds route handlers; a `_folder` is private (never a route).
      if ((dir === path.join(ROOT, "app") && entry.name === "api") || entry.name.startsWith("_")) continue;
      const segment = entry.name.startsWith("(") ? "" : `/${entry.name.replace(/^\[(.+)\]$/, "{$1}")}`;
      routes.push(...pageRoutes(path.join(dir, entry.name), prefix + segment));
    } else if (entry.name === "page.tsx") {
      routes.push(prefix || "/");
    }
  }
  return routes;
}

/** The first cell of each row of the README's "## Pages" table. */
function readmePages(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Pages\n");
  if (start < 0) return [];
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
}

describe("the README's Pages table", () => {
  it("has one row for every page under app/, and no other", () => {
    const pages = pageRoutes(path.join(ROOT, "app")).sort();
    expect(pages).toContain("/");
    expect(pages).toContain("/recalls/{id}");
    expect(
      readmePages().sort(),
      'add the page\'s line to README.md "## Pages" (or remove the line of a page that is gone)',
    ).toEqual(pages);
  });
});
