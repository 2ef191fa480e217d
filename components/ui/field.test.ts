import { describe, expect, it } from "vitest";
import { classNames } from "./class-names";
import { fieldDescribedBy } from "./field";

describe("fieldDescribedBy", () => {
  it("points at the hint and then the error, only those shown", () => {
    expect(fieldDescribedBy("k", {})).toBeUndefined();
    expect(fieldDescribedBy("k", { hint: "1 to 100" })).toBe("k-hint");
    expect(fieldDescribedBy("k", { error: "Enter a whole number." })).toBe("k-error");
    expect(fieldDescribedBy("k", { hint: "1 to 100", error: "Enter a whole number." })).toBe("k-hint k-error");
    expect(fieldDescribedBy("k", { hint: "", error: null })).toBeUndefined();
  });
});

describe("classNames", () => {
  it("joins the truthy names in order", () => {
    expect(classNames("a", false, null, undefined, "", "b")).toBe("a b");
    expect(classNames()).toBe("");
  });
});
