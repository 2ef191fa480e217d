import { describe, expect, it } from "vitest";
import { bucketLabel, bucketTick, parseWallClock, sourcesWords } from "./format";

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
