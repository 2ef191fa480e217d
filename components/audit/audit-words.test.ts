import { describe, expect, it } from "vitest";
import { AUDIT_CLASSES } from "@/lib/audit/types";
import { CLASS_WORDS, flaggedLine, memoryHref, recallWhyHref } from "./audit-words";

describe("audit words", () => {
  it("names every class and says what it means", () => {
    for (const c of AUDIT_CLASSES) {
      expect(CLASS_WORDS[c].label).toMatch(/^[A-Z]/);
      expect(CLASS_WORDS[c].means).toMatch(/\.$/);
    }
  });

  it("counts the flagged memories in words", () => {
    expect(flaggedLine({ findings: [], memories: 1 })).toBe("0 of 1 memory flagged");
    expect(flaggedLine({ findings: new Array(3).fill(null), memories: 12000 })).toBe("3 of 12,000 memories flagged");
  });

  it("links a memory in its store and a recall with why, escaped", () => {
    expect(memoryHref("my store", "a/b")).toBe("/memories/a%2Fb?store=my%20store");
    expect(recallWhyHref("r-1", "m 1")).toBe("/recalls/r-1?why=m%201");
  });
});
