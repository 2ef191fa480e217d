import { describe, expect, it } from "vitest";
import { ThresholdsError } from "@/lib/recall/errors";
import { DEFAULT_THRESHOLDS } from "@/lib/recall/thresholds";
import { DEFAULT_PROFILE, editProfile, poolSizeFor, profileFromInput } from "./profile";

describe("profiles", () => {
  it("the default profile is the reference", () => {
    expect(DEFAULT_PROFILE.thresholds).toEqual(DEFAULT_THRESHOLDS);
    expect(DEFAULT_PROFILE.pool_size).toBeNull();
    expect(poolSizeFor(DEFAULT_PROFILE, 7)).toBe(7);
    expect(poolSizeFor({ pool_size: 10 }, 7)).toBe(10);
  });

  it("merges thresholds over the defaults and names them after the profile", () => {
    const p = profileFromInput({
      name: "use-lite",
      thresholds: { abs_low_cosine: 0.41, moderate_prominence: 0, low_prominence: -0.12 },
      pool_size: 10,
    });
    expect(p.thresholds).toMatchObject({ name: "use-lite", abs_low_cosine: 0.41, moderate_prominence: 0, high_prominence: 0.4 });
    expect(p.pool_size).toBe(10);
    expect(p.builtin).toBe(false);
  });

  it("refuses bad input with every issue, paths under thresholds", () => {
    const issues = (input: unknown) => {
      try {
        profileFromInput(input);
      } catch (e) {
        expect(e).toBeInstanceOf(ThresholdsError);
        return (e as ThresholdsError).details.issues;
      }
      throw new Error("accepted");
    };
    expect(issues({ name: "default" })[0]!.message).toMatch(/read-only/);
    expect(issues({ name: "bad name!" })[0]!.path).toEqual(["name"]);
    expect(issues({ name: "x", pool_size: 0 })[0]!.path).toEqual(["pool_size"]);
    expect(issues({ name: "x", pool_size: 2.5 })[0]!.path).toEqual(["pool_size"]);
    expect(issues({ name: "x", thresholds: { abs_low_cosine: 0.9 } }).map((i) => i.path)).toContainEqual([
      "thresholds",
      "abs_moderate_cosine",
    ]);
    expect(issues({ name: "x", thresholds: { nope: 1 } })[0]!.path[0]).toBe("thresholds");
    expect(issues({ name: "x", extra: 1 }).length).toBe(1);
  });
});

describe("editProfile", () => {
  const base = { thresholds: { ...DEFAULT_THRESHOLDS, name: "use-lite" }, pool_size: 5 };

  it("keeps the profile when nothing changes, and the pool override alone keeps its constants", () => {
    expect(editProfile(base, {})).toEqual(base);
    expect(editProfile(base, { thresholds: { abs_low_cosine: DEFAULT_THRESHOLDS.abs_low_cosine } })).toEqual(base);
    expect(editProfile(base, { pool_size: null })).toEqual({ thresholds: base.thresholds, pool_size: null });
  });

  it("merges edited constants over the profile's, named custom", () => {
    const edited = editProfile(base, { thresholds: { abs_low_cosine: 0.45, abs_moderate_cosine: 0.6 }, pool_size: 10 });
    expect(edited.pool_size).toBe(10);
    expect(edited.thresholds).toEqual({
      ...DEFAULT_THRESHOLDS,
      name: "custom",
      abs_low_cosine: 0.45,
      abs_moderate_cosine: 0.6,
    });
  });

  it("refuses edits that break the band order or a range, naming every one under thresholds", () => {
    try {
      editProfile(base, { thresholds: { high_prominence: 0.1, abs_low_cosine: 2 } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ThresholdsError);
      const paths = (error as ThresholdsError).details.issues.map((i) => i.path.join("."));
      expect(paths).toEqual(expect.arrayContaining(["thresholds.high_prominence", "thresholds.abs_low_cosine"]));
    }
  });
});
