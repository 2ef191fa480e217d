import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEVEL_COLORS } from "./level-palette";

describe("the level palette", () => {
  it("app/globals.css declares the same colours as --level-* variables", () => {
    const css = readFileSync(path.join(import.meta.dirname, "..", "app", "globals.css"), "utf8");
    for (const [level, colour] of Object.entries(LEVEL_COLORS)) {
      expect(css, `--level-${level}`).toMatch(new RegExp(`--level-${level}:\\s*${colour};`, "i"));
    }
  });
});
