import { describe, expect, it } from "vitest";
import { isUuid } from "./uuid";

describe("isUuid", () => {
  it("takes 8-4-4-4-12 hex digits in either case, nothing else", () => {
    expect(isUuid("6f1c1b1e-3c1d-4c55-9a7e-2f0d6d8f1a10")).toBe(true);
    expect(isUuid("6F1C1B1E-3C1D-4C55-9A7E-2F0D6D8F1A10")).toBe(true);
    for (const bad of [
      "",
      "6f1c1b1e3c1d4c559a7e2f0d6d8f1a10",
      "6f1c1b1e-3c1d-4c55-9a7e-2f0d6d8f1a1",
      "6f1c1b1e-3c1d-4c55-9a7e-2f0d6d8f1a10 ",
      "g f1c1b1e-3c1d-4c55-9a7e-2f0d6d8f1a10",
    ])
      expect(isUuid(bad), bad).toBe(false);
  });
});
