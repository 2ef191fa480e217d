import { describe, expect, it } from "vitest";
import { envValue, httpUrlProblem, wholeNumberIn } from "./env-values";

describe("envValue", () => {
  it("trims, and counts blank as unset", () => {
    expect(envValue({ A: "  x " }, "A")).toBe("x");
    expect(envValue({ A: "   " }, "A")).toBeUndefined();
    expect(envValue({}, "A")).toBeUndefined();
  });
});

describe("wholeNumberIn", () => {
  it("takes digits within the bounds, inclusive", () => {
    expect(wholeNumberIn("1", 1, 10)).toBe(1);
    expect(wholeNumberIn("10", 1, 10)).toBe(10);
    expect(wholeNumberIn("007", 1, 10)).toBe(7);
  });
  it.each(["0", "11", "-1", "+2", "1.5", "1e3", "", " 3", "x", "99999999999999999999"])("refuses %j", (value) => {
    expect(wholeNumberIn(value, 1, 10)).toBeUndefined();
  });
});

describe("httpUrlProblem", () => {
  it("accepts http and https URLs", () => {
    expect(httpUrlProblem("http://127.0.0.1:8080/v1")).toBeUndefined();
    expect(httpUrlProblem("https://api.example.com", "KEY")).toBeUndefined();
  });
  it("says what is wrong, in words that follow the variable's name", () => {
    expect(httpUrlProblem("not a url")).toBe("is not a valid URL");
    expect(httpUrlProblem("ftp://example.com")).toBe('must be an http(s) URL, got "ftp:"');
  });
  it("refuses credentials only when the key has its own variable", () => {
    expect(httpUrlProblem("https://user:secret@example.com", "X_API_KEY")).toBe(
      "must not contain credentials; put the key in X_API_KEY",
    );
    expect(httpUrlProblem("https://user@example.com")).toBeUndefined();
  });
});
