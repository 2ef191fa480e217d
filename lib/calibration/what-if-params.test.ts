import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import {
  describeEdits,
  parseConstant,
  parsePoolSize,
  parseWhatIfParams,
  whatIfBody,
  whatIfSearch,
  type WhatIfParams,
} from "./what-if-params";

const parse = (q: string) => parseWhatIfParams(new URLSearchParams(q));

describe("what-if params", () => {
  it("defaults to the shipped profile with nothing edited", () => {
    expect(parse("")).toEqual({ params: { profile: "use-lite", edits: {}, filters: "", run: false }, problems: [] });
  });

  it("round-trips a state through its link, in a fixed order", () => {
    const state: WhatIfParams = {
      profile: "strict",
      edits: { abs_low_cosine: 0.45, moderate_prominence: -0.05 },
      pool_size: 10,
      filters: "store=embedded&level=low,none",
      run: true,
    };
    const search = whatIfSearch(state);
    expect(search).toBe(
      "profile=strict&pool_size=10&moderate_prominence=-0.05&abs_low_cosine=0.45&filters=store%3Dembedded%26level%3Dlow%2Cnone&run=1",
    );
    expect(parse(search)).toEqual({ params: state, problems: [] });
    // The page (k) and the profile's own pool are different states.
    expect(parse(whatIfSearch({ ...state, pool_size: null })).params.pool_size).toBeNull();
    expect(parse(whatIfSearch({ ...state, pool_size: undefined })).params).not.toHaveProperty("pool_size");
  });

  it("leaves out and reports values that do not parse", () => {
    const { params, problems } = parse("abs_low_cosine=abc&z_high=1e400&pool_size=0&strong_abs_cosine=0.9&colour=red");
    expect(params.edits).toEqual({ strong_abs_cosine: 0.9 });
    expect(params).not.toHaveProperty("pool_size");
    expect(problems.map((p) => p.key)).toEqual(["abs_low_cosine", "z_high", "pool_size"]);
  });

  it("makes the request body: edits and the pool only when given, filters as an object", () => {
    expect(whatIfBody(parse("profile=default&filters=?q=kafka").params)).toEqual({ profile: "default", filters: { q: "kafka" } });
    expect(whatIfBody(parse("abs_low_cosine=0.5&pool_size=k").params)).toEqual({
      profile: "use-lite",
      thresholds: { abs_low_cosine: 0.5 },
      pool_size: null,
      filters: {},
    });
  });

  it("says what was edited, against the profile's own values", () => {
    const base = { thresholds: { ...DEFAULT_THRESHOLDS }, pool_size: null };
    const { params } = parse("abs_low_cosine=0.3&abs_moderate_cosine=0.55&pool_size=5");
    expect(describeEdits(params, base)).toBe("abs_moderate_cosine 0.5 → 0.55, pool first 5");
    expect(describeEdits(parse("pool_size=k").params, base)).toBe("");
    expect(describeEdits(parse("pool_size=k").params, null)).toBe("pool the page (k)");
  });
});

describe("typed values", () => {
  it("reads constants as finite numbers only", () => {
    expect(parseConstant(" 0.41 ")).toBe(0.41);
    expect(parseConstant("-.12")).toBe(-0.12);
    expect(parseConstant("1e-9")).toBe(1e-9);
    for (const bad of ["", " ", "abc", "0.4.1", "1/2", "Infinity", "0x10", "1e999"]) expect(parseConstant(bad), bad).toBeNull();
  });

  it("reads a pool size as the profile's, the page, or 1–200 candidates", () => {
    expect(parsePoolSize("")).toEqual({ ok: true, value: undefined });
    expect(parsePoolSize("K")).toEqual({ ok: true, value: null });
    expect(parsePoolSize("20")).toEqual({ ok: true, value: 20 });
    for (const bad of ["0", "201", "2.5", "-3", "ten"]) expect(parsePoolSize(bad).ok, bad).toBe(false);
  });
});
