import { describe, expect, it } from "vitest";
import { agreementOf, NO_CELLS, shapeJudges, type JudgeCountRow } from "./judges";

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

  it("puts the reference first, takes its series from the answer's, and skips levels it does not count", () => {
    const judges = shapeJudges(
      series,
      [
        row({ level: "high", ok: 5, counted: 4, kept_none: 1 }),
        row({ level: "low", ok: 1, counted: 1, kept_none: 1 }),
        row({ level: "", ok: 7 }), // no level: not counted
        row({ set: "judge", profile_name: "", level: "high", ok: 5 }), // reference-judged: already in "level"
      ],
      [],
    );
    expect(judges).toHaveLength(1);
    expect(judges[0]).toMatchObject({ profile: null, recalls: 6, high: 5, low: 1 });
    expect(judges[0]!.selector).toMatchObject({ worth_yes: 3, worth_no: 1, weak_yes: 0, weak_no: 1, rate: 4 / 5 });
    expect(judges[0]!.series).toEqual(series);
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
    expect(judges.map((j) => [j.profile, j.recalls])).toEqual([
      [null, 0],
      ["a", 3],
      ["b", 1],
    ]);
    expect(judges[1]!.series).toEqual([{ local_start: "2025-01-01T00:00", high: 0, moderate: 3, low: 0, none: 0 }]);
    expect(judges[2]!.series[0]).toMatchObject({ none: 0 });
    expect(judges[2]!.labels).toMatchObject({ weak_no: 2, total: 2, rate: 1 });
  });
});

describe("levelDataUnder", () => {
  it("swaps in a profile's level counts per bucket and in total, and is null for a judge the answer lacks", async () => {
    const { levelDataUnder } = await import("./judges");
    const point = {
      local_start: "2025-01-01T00:00",
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
      totals: { high: 5, moderate: 0, low: 1, none: 0, unknown_level: 2 },
      judges: [
        {
          profile: "p",
          high: 1,
          moderate: 1,
          low: 1,
          none: 1,
          series: [{ local_start: "2025-01-01T00:00", high: 1, moderate: 1, low: 1, none: 1 }],
        },
      ],
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a partial answer: only what the function reads
    const under = levelDataUnder(data as any, "p")!;
    expect(under.series[0]).toMatchObject({ high: 1, moderate: 1, low: 1, none: 1, unknown_level: 0, weak_hit_rate: 0.5 });
    expect(under.totals).toMatchObject({ high: 1, moderate: 1, low: 1, none: 1, unknown_level: 0 });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    expect(levelDataUnder(data as any, null)).toBe(data);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    expect(levelDataUnder(data as any, "other")).toBeNull();
  });
});
