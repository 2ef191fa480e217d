import { describe, expect, it } from "vitest";
import { StoreError } from "@/lib/stores/types";
import { crossBundleInstance } from "./cross-bundle";

describe("crossBundleInstance", () => {
  it("recognises an error made by another copy of the class (another bundle)", () => {
    // A second, independent class with the same brand stands in for the other bundle's copy.
    const brand = crossBundleInstance("StoreError");
    class OtherBundleStoreError extends Error {
      readonly [brand.brand] = true;
    }
    expect(new OtherBundleStoreError("x") instanceof StoreError).toBe(true);
    expect(new StoreError(502, "c", "m") instanceof StoreError).toBe(true);
    expect(new Error("plain") instanceof StoreError).toBe(false);
    expect((null as unknown as object) instanceof StoreError).toBe(false);
  });
});
