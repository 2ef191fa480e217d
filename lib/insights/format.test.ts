import { describe, expect, it } from "vitest";
import { bucketLabel, bucketTick, parseWallClock, sourcesWords, weakHitWords } from "./format";

describe("insight formatting", () => {
  it("labels buckets from their wall-clock start, whatever zone formats them", () => {
    expect(parseWallClock("2025-01-09T14:00")).toEqual({ year: 2025, month: 1, day: 9, hour: 14, minute: 0 });
    expect(parseWallClock("2025-01-09")).toBeNull();
    expect(bucketTick("2025-01-09T14:00", "hour")).toBe("14:00");
    expect(bucketTick("2025-01-09T00:00", "hour")).toBe("Jan 9");
    expect(bucketTick("2025-01-09T05:30", "hour")).toBe("05:30");
    expect(bucketTick("2025-01-09T00:00", "day")).toBe("Jan 9");
    expect(bucketLabel("2025-01-09T23:00", "hour")).toBe("Thu, Jan 9, 23:00–00:00");
    expect(bucketLabel("2025-01-09T00:00", "day")).toBe("Thu, Jan 9, 2025");
    expect(bucketLabel("2025-01-06T00:00", "week")).toBe("Week of Mon, Jan 6, 2025");
    expect(bucketLabel("garbage", "day")).toBe("garbage");
  });
});

describe("sourcesWords", () => {
  it("says which sources a sample holds", () => {
    expect(sourcesWords(["console", "ingest", "proxy", "otel"])).toBe("evaluation runs left out");
    expect(sourcesWords(null)).toBe("every source, evaluation runs included");
    expect(sourcesWords(["console", "ingest", "proxy", "otel", "eval"])).toBe("every source, evaluation runs included");
    expect(sourcesWords(["eval"])).toBe("Evaluation runs only");
    expect(sourcesWords(["console", "proxy"])).toBe("from Console, Proxy");
  });
});

describe("weakHitWords", () => {
  const totals = { high: 2, moderate: 1, low: 1, none: 1, weak_hit_rate: 0.4 };

  it("leads with the store's verdict and gives the reference rules' share beside it", () => {
    expect(weakHitWords(totals, { recalls: 5, low: 2, none: 2 }, "evaluation runs left out")).toEqual({
      label: "Weak-hit rate, store's verdict",
      value: "80%",
      detail:
        "4 of 5 recalls judged none or low by the store's verdict; reference rules 40%, what the agent saw; evaluation runs left out",
    });
    expect(weakHitWords(totals, { recalls: 0, low: 0, none: 0 }, "x").value).toBe("—");
  });

  it("gives the reference rules' share alone for an answer without a verdict", () => {
    expect(weakHitWords(totals, undefined, "x")).toEqual({
      label: "Weak-hit rate",
      value: "40%",
      detail: "2 of 5 recalls with a level (none + low); x",
    });
  });
});
