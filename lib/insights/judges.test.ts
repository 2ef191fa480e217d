import { describe, expect, it } from "vitest";
import {
  agreementOf,
  findJudge,
  judgeKeyOf,
  judgeParamOf,
  levelDataUnder,
  levelMixTitle,
  NO_CELLS,
  REFERENCE_JUDGE,
  REFERENCE_JUDGE_PARAM,
  shapeJudges,
  VERDICT_JUDGE,
  verdictCounts,
  type JudgeCountRow,
} from "./judges";

const row = (r: Partial<JudgeCountRow>): JudgeCountRow => ({
  set: "level",
  level: "high",
  profile_name: "",
  local_bucket: null,
  ok: 0,
  counted: 0,
  kept_none: 0,
  ...r,
});

describe("agreementOf", () => {
  it("counts worth·yes and weak·no as agreeing, and is null over nothing", () => {
    expect(agreementOf({ worth_yes: 3, worth_no: 1, weak_yes: 2, weak_no: 4 })).toEqual({
      worth_yes: 3,
      worth_no: 1,
      weak_yes: 2,
      weak_no: 4,
      total: 10,
      agree: 7,
      rate: 0.7,
    });
    expect(agreementOf(NO_CELLS).rate).toBeNull();
  });
});

describe("shapeJudges", () => {
  const series = [{ local_start: "2025-01-01T00:00", high: 5, moderate: 0, low: 1, none: 0 }];

  it("puts the verdict and the reference first, takes the reference's series from the answer's, and skips levels it does not count", () => {
    const judges = shapeJudges(
      series,
      [
        row({ level: "high", ok: 5, counted: 4, kept_none: 1 }),
        row({ level: "low", ok: 1, counted: 1, kept_none: 1 }),
        row({ level: "", ok: 7 }), // no level: not counted
        row({ set: "judge", profile_name: "", level: "high", ok: 5, counted: 4, kept_none: 1 }),
        row({ set: "judge", profile_name: "", level: "low", ok: 1, counted: 1, kept_none: 1 }),
        row({ set: "judge", profile_name: "", level: "", ok: 7 }),
      ],
      [],
    );
    expect(judges.map((j) => [j.judge, j.profile])).toEqual([
      ["verdict", null],
      ["reference", null],
    ]);
    const [verdict, reference] = judges;
    expect(reference).toMatchObject({ recalls: 6, high: 5, low: 1 });
    expect(reference!.selector).toMatchObject({ worth_yes: 3, worth_no: 1, weak_yes: 0, weak_no: 1, rate: 4 / 5 });
    expect(reference!.series).toEqual(series);
    // No profile judged anything: the store's verdict is the reference rules' level.
    expect(verdict).toMatchObject({ recalls: 6, high: 5, moderate: 0, low: 1, none: 0, level_mix: reference!.level_mix });
    expect(verdict!.selector).toEqual(reference!.selector);
  });

  it("judges every recall as its store judged it: the profile's level where one judged it, else the reference level", () => {
    const bucket = "2025-01-01T00:00";
    const judges = shapeJudges(
      series,
      [
        // Reference levels of all six recalls: 5 high, 1 low.
        row({ level: "high", ok: 5, counted: 5, kept_none: 0 }),
        row({ level: "low", ok: 1, counted: 1, kept_none: 1 }),
        // Profile p judged four of the high ones: 1 high, 3 none (the selector kept nothing for two of those).
        row({ set: "judge", profile_name: "p", level: "high", ok: 1, counted: 1 }),
        row({ set: "judge", profile_name: "p", level: "none", ok: 3, counted: 3, kept_none: 2 }),
        row({ set: "judgeBucket", profile_name: "p", level: "high", ok: 1, local_bucket: bucket }),
        row({ set: "judgeBucket", profile_name: "p", level: "none", ok: 3, local_bucket: bucket }),
        // The reference rules judged the other two: 1 high, 1 low.
        row({ set: "judge", profile_name: "", level: "high", ok: 1, counted: 1 }),
        row({ set: "judge", profile_name: "", level: "low", ok: 1, counted: 1, kept_none: 1 }),
        row({ set: "judgeBucket", profile_name: "", level: "high", ok: 1, local_bucket: bucket }),
        row({ set: "judgeBucket", profile_name: "", level: "low", ok: 1, local_bucket: bucket }),
      ],
      [
        { by: "level", profile_name: null, level: "high", present: "no", n: 2 },
        { by: "judge", profile_name: "p", level: "none", present: "no", n: 2 },
        { by: "judge", profile_name: "", level: "low", present: "yes", n: 1 },
      ],
    );
    expect(judges.map((j) => [j.judge, j.profile, j.recalls])).toEqual([
      ["verdict", null, 6],
      ["reference", null, 6],
      ["profile", "p", 4],
    ]);
    const verdict = findJudge(judges, VERDICT_JUDGE)!;
    expect([verdict.high, verdict.moderate, verdict.low, verdict.none]).toEqual([2, 0, 1, 3]);
    expect(verdict.series).toEqual([{ local_start: bucket, high: 2, moderate: 0, low: 1, none: 3 }]);
    // Worth reading: 2 high, both kept some; weak: 3 none (2 kept none) and 1 low (kept none).
    expect(verdict.selector).toMatchObject({ worth_yes: 2, worth_no: 0, weak_yes: 1, weak_no: 3, agree: 5, total: 6 });
    // Labels by the level each recall was judged with: 2 none·absent (p), 1 low·present (reference).
    expect(verdict.labels).toMatchObject({ worth_yes: 0, worth_no: 0, weak_yes: 1, weak_no: 2, total: 3 });
    expect(findJudge(judges, REFERENCE_JUDGE)!.labels).toMatchObject({ worth_no: 2, total: 2, rate: 0 });
    expect(findJudge(judges, { judge: "profile", profile: "p" })!.labels).toMatchObject({ weak_no: 2, total: 2 });
  });

  it("orders profiles by recalls and gives each a bucket for every point of the series", () => {
    const judges = shapeJudges(
      series,
      [
        row({ set: "judge", profile_name: "b", level: "none", ok: 1 }),
        row({ set: "judge", profile_name: "a", level: "moderate", ok: 3 }),
        row({ set: "judgeBucket", profile_name: "a", level: "moderate", ok: 3, local_bucket: "2025-01-01T00:00" }),
      ],
      [{ by: "judge", profile_name: "b", level: "none", present: "no", n: 2 }],
    );
    expect(judges.map((j) => [j.judge, j.profile, j.recalls])).toEqual([
      ["verdict", null, 4],
      ["reference", null, 0],
      ["profile", "a", 3],
      ["profile", "b", 1],
    ]);
    expect(judges[2]!.series).toEqual([{ local_start: "2025-01-01T00:00", high: 0, moderate: 3, low: 0, none: 0 }]);
    expect(judges[3]!.series[0]).toMatchObject({ none: 0 });
    expect(judges[3]!.labels).toMatchObject({ weak_no: 2, total: 2, rate: 1 });
  });
});

describe("the judge in a URL", () => {
  it("is the store's verdict when unset, the reference rules by a name no profile can have, else a profile", () => {
    expect(judgeKeyOf(undefined)).toEqual(VERDICT_JUDGE);
    expect(judgeKeyOf("")).toEqual(VERDICT_JUDGE);
    expect(judgeKeyOf("_verdict")).toEqual(VERDICT_JUDGE);
    expect(judgeKeyOf(REFERENCE_JUDGE_PARAM)).toEqual(REFERENCE_JUDGE);
    // An old link naming a profile keeps naming it.
    expect(judgeKeyOf("use-lite")).toEqual({ judge: "profile", profile: "use-lite" });
    for (const key of [VERDICT_JUDGE, REFERENCE_JUDGE, { judge: "profile", profile: "reference" } as const]) {
      expect(judgeKeyOf(judgeParamOf(key))).toEqual(key);
    }
    expect(judgeParamOf(VERDICT_JUDGE)).toBeUndefined();
  });

  it("titles the level chart by its judge", () => {
    expect(levelMixTitle(VERDICT_JUDGE)).toBe("Level mix: the store's verdict");
    expect(levelMixTitle(REFERENCE_JUDGE)).toBe("Level mix: the reference rules");
    expect(levelMixTitle({ judge: "profile", profile: "p" })).toBe("Level mix under profile p");
  });
});

describe("levelDataUnder", () => {
  const point = {
    local_start: "2025-01-01T00:00",
    ok: 8,
    high: 5,
    moderate: 0,
    low: 1,
    none: 0,
    unknown_level: 2,
    weak_hit_rate: 1 / 6,
  };
  const data = {
    bucket: "day" as const,
    series: [point],
    totals: { ok: 8, high: 5, moderate: 0, low: 1, none: 0, unknown_level: 2, weak_hit_rate: 1 / 6 },
    judges: [
      {
        judge: "verdict",
        profile: null,
        recalls: 6,
        high: 2,
        moderate: 1,
        low: 1,
        none: 2,
        level_mix: { high: 2 / 6, moderate: 1 / 6, low: 1 / 6, none: 2 / 6 },
        series: [{ local_start: "2025-01-01T00:00", high: 2, moderate: 1, low: 1, none: 2 }],
      },
      { judge: "reference", profile: null, high: 5, moderate: 0, low: 1, none: 0, series: [] },
      {
        judge: "profile",
        profile: "p",
        recalls: 4,
        high: 1,
        moderate: 1,
        low: 1,
        none: 1,
        level_mix: { high: 0.25, moderate: 0.25, low: 0.25, none: 0.25 },
        series: [{ local_start: "2025-01-01T00:00", high: 1, moderate: 1, low: 1, none: 1 }],
      },
    ],
  };
  // A partial answer: only what the function reads.
  const answer = data as unknown as Parameters<typeof levelDataUnder>[0];

  it("swaps in a profile's level counts per bucket and in total, and is null for a judge the answer lacks", () => {
    const under = levelDataUnder(answer, { judge: "profile", profile: "p" })!;
    expect(under.series[0]).toMatchObject({ high: 1, moderate: 1, low: 1, none: 1, unknown_level: 0, weak_hit_rate: 0.5 });
    expect(under.totals).toMatchObject({ high: 1, moderate: 1, low: 1, none: 1, unknown_level: 0, weak_hit_rate: 0.5 });
    expect(levelDataUnder(answer, REFERENCE_JUDGE)).toBe(answer);
    expect(levelDataUnder(answer, { judge: "profile", profile: "other" })).toBeNull();
  });

  it("swaps in the store's verdict, leaving recalls without any level as unknown", () => {
    const under = levelDataUnder(answer, VERDICT_JUDGE)!;
    expect(under.series[0]).toMatchObject({ high: 2, moderate: 1, low: 1, none: 2, unknown_level: 2, weak_hit_rate: 0.5 });
    expect(under.totals).toMatchObject({ high: 2, moderate: 1, low: 1, none: 2, unknown_level: 2, weak_hit_rate: 0.5 });
    expect(levelDataUnder({ ...answer, judges: [] }, VERDICT_JUDGE)).toBeNull();
  });
});

describe("verdictCounts", () => {
  it("sums a group's recalls by the level each was judged with, leaving out recalls without one", () => {
    expect(
      verdictCounts([
        { level: "low", ok: 2 },
        { level: "high", ok: 1 },
        { level: "low", ok: 1 },
        { level: "", ok: 4 },
        { level: null, ok: 1 },
      ]),
    ).toEqual({ high: 1, moderate: 0, low: 3, none: 0, weak_hit_rate: 0.75 });
    expect(verdictCounts([])).toEqual({ high: 0, moderate: 0, low: 0, none: 0, weak_hit_rate: null });
  });
});
