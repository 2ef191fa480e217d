import { describe, expect, it } from "vitest";
import { RecallInputError, ThresholdsError } from "./errors";
import {
  DEFAULT_THRESHOLDS,
  resolveThresholds,
  THRESHOLD_KEYS,
  ThresholdsProfileSchema,
  validateThresholds,
  type Thresholds,
} from "./thresholds";

function thresholdsError(fn: () => unknown): ThresholdsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ThresholdsError);
    expect(e).toBeInstanceOf(RecallInputError);
    return e as ThresholdsError;
  }
  throw new Error("expected a ThresholdsError");
}

const paths = (e: ThresholdsError): string[] => e.details.issues.map((i) => i.path.join("."));

describe("DEFAULT_THRESHOLDS", () => {
  it("holds the reference constants", () => {
    expect(DEFAULT_THRESHOLDS).toEqual({
      name: "default",
      high_prominence: 0.4,
      moderate_prominence: 0.25,
      low_prominence: 0.12,
      strong_abs_cosine: 0.85,
      abs_moderate_cosine: 0.5,
      abs_low_cosine: 0.3,
      bg_eps: 0.001,
      std_eps: 1e-9,
      z_high: 2.0,
      z_moderate: 1.0,
      z_low: 0.3,
    });
    expect(validateThresholds(DEFAULT_THRESHOLDS)).toEqual([]);
    expect(Object.isFrozen(DEFAULT_THRESHOLDS)).toBe(true);
  });

  it("lists every numeric key", () => {
    expect([...THRESHOLD_KEYS].sort()).toEqual(
      Object.keys(DEFAULT_THRESHOLDS)
        .filter((k) => k !== "name")
        .sort(),
    );
  });
});

describe("resolveThresholds", () => {
  it("returns a copy of the defaults for undefined and null", () => {
    const a = resolveThresholds(undefined);
    expect(a).toEqual(DEFAULT_THRESHOLDS);
    a.high_prominence = 9;
    expect(DEFAULT_THRESHOLDS.high_prominence).toBe(0.4);
    expect(resolveThresholds(null)).toEqual(DEFAULT_THRESHOLDS);
    expect(resolveThresholds({})).toEqual(DEFAULT_THRESHOLDS);
  });

  it("merges a partial profile and names it", () => {
    expect(resolveThresholds({ strong_abs_cosine: 0.9 })).toEqual({
      ...DEFAULT_THRESHOLDS,
      name: "custom",
      strong_abs_cosine: 0.9,
    });
    expect(resolveThresholds({ name: "  qwen3  ", strong_abs_cosine: 0.95 }).name).toBe("qwen3");
    expect(resolveThresholds({ high_prominence: 0.4 }).name).toBe("default");
  });

  it("reserves the name 'default' for the reference values", () => {
    const e = thresholdsError(() => resolveThresholds({ name: "default", z_high: 3 }));
    expect(paths(e)).toEqual(["name"]);
    expect(resolveThresholds({ name: "default" }).name).toBe("default");
  });

  it("rejects NaN, Infinity, strings and null values", () => {
    const e = thresholdsError(() => resolveThresholds({ high_prominence: NaN, z_high: Infinity, bg_eps: "0.1", std_eps: null }));
    expect(paths(e).sort()).toEqual(["bg_eps", "high_prominence", "std_eps", "z_high"]);
    expect(e.code).toBe("invalid_thresholds");
  });

  it("rejects unknown keys (a typo is not a silent no-op)", () => {
    const e = thresholdsError(() => resolveThresholds({ hight_prominence: 0.5 }));
    expect(e.details.issues[0]?.message).toMatch(/hight_prominence/);
  });

  it("rejects a non-object", () => {
    thresholdsError(() => resolveThresholds(0.4));
    thresholdsError(() => resolveThresholds([0.4]));
  });

  it("requires strictly ordered prominence and z bands", () => {
    expect(paths(thresholdsError(() => resolveThresholds({ high_prominence: 0.25 })))).toEqual(["high_prominence"]);
    expect(paths(thresholdsError(() => resolveThresholds({ low_prominence: 0.3 })))).toEqual(["moderate_prominence"]);
    expect(paths(thresholdsError(() => resolveThresholds({ z_moderate: 2 })))).toEqual(["z_high"]);
    expect(paths(thresholdsError(() => resolveThresholds({ z_low: 1.5 })))).toEqual(["z_moderate"]);
  });

  it("requires strong ≥ abs moderate ≥ abs low cosines (equality allowed)", () => {
    expect(paths(thresholdsError(() => resolveThresholds({ strong_abs_cosine: 0.45 })))).toEqual(["strong_abs_cosine"]);
    expect(paths(thresholdsError(() => resolveThresholds({ abs_low_cosine: 0.6 })))).toEqual(["abs_moderate_cosine"]);
    expect(resolveThresholds({ strong_abs_cosine: 0.5, abs_low_cosine: 0.5 }).abs_moderate_cosine).toBe(0.5);
  });

  it("checks sane ranges", () => {
    const e = thresholdsError(() =>
      resolveThresholds({ strong_abs_cosine: 1.5, abs_low_cosine: -2, bg_eps: -0.1, std_eps: 0, high_prominence: 2000 }),
    );
    expect(paths(e).sort()).toEqual(["abs_low_cosine", "bg_eps", "high_prominence", "std_eps", "strong_abs_cosine"]);
    expect(e.details.issues.find((i) => i.path[0] === "bg_eps")?.message).toMatch(/between 0 and 1/);
  });

  it("lists every problem at once", () => {
    const e = thresholdsError(() => resolveThresholds({ high_prominence: 0.1, z_low: 5, strong_abs_cosine: 0.1 }));
    expect(e.details.issue_count).toBe(3);
    expect(e.message).toMatch(/^Invalid threshold profile: .*\(and 2 more\)$/);
  });
});

describe("ThresholdsProfileSchema (complete stored profiles)", () => {
  it("accepts a valid profile and rejects a partial or disordered one", () => {
    const good: Thresholds = { ...DEFAULT_THRESHOLDS, name: "use-lite" };
    expect(ThresholdsProfileSchema.parse(good)).toEqual(good);
    expect(ThresholdsProfileSchema.safeParse({ name: "x", high_prominence: 0.4 }).success).toBe(false);
    const bad = ThresholdsProfileSchema.safeParse({ ...good, z_high: 0.1 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["z_high"]);
  });
});
