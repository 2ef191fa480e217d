import { describe, expect, it } from "vitest";
import {
  allowedBuckets,
  fittingPreset,
  rangeImplicit,
  defaultBucket,
  insightsApiParams,
  readInsightsUrl,
  spanOf,
  writeInsightsUrl,
  type InsightsUrlState,
} from "./insights-url";

const read = (query: string) => readInsightsUrl(new URLSearchParams(query));
const NOW = Date.parse("2025-06-01T12:00:30.500Z");

describe("Insights URL state", () => {
  it("opens on the last 30 days when nothing is set, and writes that view as an empty query", () => {
    expect(read("")).toEqual({ range: "30d", invalid: null });
    expect(writeInsightsUrl({ range: "30d" })).toBe("");
  });

  it("round-trips presets, custom ranges and filters", () => {
    const states: InsightsUrlState[] = [
      { range: "24h", bucket: "hour", store: "prod", selector_model: "score-gap", tz: "UTC" },
      { range: "7d" },
      { range: "7d", source: "all" },
      { range: "30d", source: "proxy" },
      {
        range: null,
        from: new Date("2025-01-09T05:00:00.000Z"),
        to: new Date("2025-01-12T05:00:00.000Z"),
        bucket: "day",
        tz: "America/New_York",
      },
    ];
    for (const state of states) expect(read(writeInsightsUrl(state))).toEqual({ ...state, invalid: null });
    expect(writeInsightsUrl(states[0]!)).toBe("range=24h&bucket=hour&store=prod&selector_model=score-gap&tz=UTC");
  });

  it("lets a preset win over explicit bounds in a hand-edited link", () => {
    expect(read("range=7d&from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z")).toEqual({ range: "7d", invalid: null });
  });

  it("explains a link it cannot read", () => {
    expect(read("range=1y").invalid).toMatch(/^range: expected 24h, 7d, 30d/);
    expect(read("from=2025-01-01T00:00:00Z").invalid).toMatch(/needs both from and to/);
    expect(read("from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z").invalid).toMatch(/from must be earlier than to/);
    expect(read("from=yesterday&to=2025-01-01T00:00:00Z").invalid).toMatch(/^from: /);
    expect(read("bucket=minute").invalid).toMatch(/^bucket: /);
    expect(read("tz=%2B02:00").invalid).toMatch(/^tz: /);
    expect(read("source=tests").invalid).toMatch(/^source: expected console, ingest, proxy, otel, eval, all/);
    expect(read("from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&bucket=hour").invalid).toMatch(/more than 2,000/);
    expect(read("range=1y")).toMatchObject({ range: "30d" });
  });

  it("ends a preset at now rounded up to the minute, so a recall logged a moment ago is inside", () => {
    expect(spanOf({ range: "24h" }, NOW)).toEqual({
      from: new Date("2025-05-31T12:01:00.000Z"),
      to: new Date("2025-06-01T12:01:00.000Z"),
    });
    const custom = { range: null, from: new Date("2025-01-01T00:00:00Z"), to: new Date("2025-01-02T00:00:00Z") };
    expect(spanOf(custom, NOW)).toEqual({ from: custom.from, to: custom.to });
  });

  it("picks a bucket that reads well for the range, and offers only those within the limit", () => {
    expect(defaultBucket({ range: "24h" }, NOW)).toBe("hour");
    expect(defaultBucket({ range: "7d" }, NOW)).toBe("day");
    expect(defaultBucket({ range: "30d" }, NOW)).toBe("day");
    const custom = (days: number): InsightsUrlState => ({
      range: null,
      from: new Date(NOW - days * 86_400_000),
      to: new Date(NOW),
    });
    expect(defaultBucket(custom(2), NOW)).toBe("hour");
    expect(defaultBucket(custom(60), NOW)).toBe("day");
    expect(defaultBucket(custom(400), NOW)).toBe("week");
    expect(allowedBuckets({ range: "30d" }, NOW)).toEqual(["hour", "day", "week"]);
    expect(allowedBuckets(custom(400), NOW)).toEqual(["day", "week"]);
  });

  it("builds the API query with the browser's zone unless the link names one", () => {
    const params = insightsApiParams({ range: "7d", store: "prod" }, NOW, "Europe/Berlin");
    expect(Object.fromEntries(params)).toEqual({
      from: "2025-05-25T12:01:00.000Z",
      to: "2025-06-01T12:01:00.000Z",
      bucket: "day",
      tz: "Europe/Berlin",
      store: "prod",
    });
    expect(insightsApiParams({ range: "24h", tz: "UTC", selector_model: "m" }, NOW, "Europe/Berlin").toString()).toBe(
      "from=2025-05-31T12%3A01%3A00.000Z&to=2025-06-01T12%3A01%3A00.000Z&bucket=hour&tz=UTC&selector_model=m",
    );
  });
});

describe("fittingPreset / rangeImplicit", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  it("opens on the shortest preset that holds every logged recall", () => {
    expect(fittingPreset("2026-12-01T09:00:00Z", now)).toBe("24h");
    expect(fittingPreset("2026-11-28T12:00:00Z", now)).toBe("7d");
    expect(fittingPreset("2026-11-10T12:00:00Z", now)).toBe("30d");
    expect(fittingPreset("2025-01-01T00:00:00Z", now)).toBe("30d");
    expect(fittingPreset(null, now)).toBe("30d");
  });
  it("knows when the URL chose no range", () => {
    expect(rangeImplicit(new URLSearchParams("store=x"))).toBe(true);
    expect(rangeImplicit(new URLSearchParams("range=30d"))).toBe(false);
    expect(rangeImplicit(new URLSearchParams("from=2026-01-01T00:00Z&to=2026-01-02T00:00Z"))).toBe(false);
  });
});

describe("the level filters, the judge and the bands in the URL", () => {
  it("reads History's level filters and the page's own choices, and writes them back the same", () => {
    const state = read("level=low,HIGH&profile_level=none&profile=use-lite&judge=use-lite&bands=embedded%00cosine");
    expect(state).toMatchObject({
      invalid: null,
      level: ["high", "low"],
      profile_level: ["none"],
      profile: "use-lite",
      judge: "use-lite",
      bands: "embedded\u0000cosine",
    });
    const { invalid: _invalid, ...rest } = state;
    expect(read(writeInsightsUrl(rest))).toEqual(state);
  });
  it("keeps the verdict filter in the link and asks the API with it", () => {
    expect(read("verdict=none,LOW")).toMatchObject({ invalid: null, verdict: ["low", "none"] });
    expect(read("verdict=likely").invalid).toBe("verdict: expected one or more of high, moderate, low, none");
    expect(writeInsightsUrl({ range: "7d", verdict: ["low", "none"] })).toBe("range=7d&verdict=low%2Cnone");
    expect(insightsApiParams({ range: "7d", verdict: ["high"] }, NOW, "UTC").get("verdict")).toBe("high");
  });
  it("keeps the reference rules' judge in the link, and leaves the store's verdict, the default, out", () => {
    expect(read("judge=_reference")).toMatchObject({ invalid: null, judge: "_reference" });
    expect(writeInsightsUrl({ range: "7d", judge: "_reference" })).toBe("range=7d&judge=_reference");
    expect(writeInsightsUrl({ range: "7d", judge: undefined })).toBe("range=7d");
  });
  it("says which level is not one", () => {
    expect(read("profile_level=medium").invalid).toBe("profile_level: expected one or more of high, moderate, low, none");
  });
  it("asks the API with the filters but not the page's display choices", () => {
    const params = insightsApiParams({ range: "7d", level: ["low", "none"], profile: "p", judge: "p", bands: "x" }, NOW, "UTC");
    expect(params.get("level")).toBe("low,none");
    expect(params.get("profile")).toBe("p");
    expect(params.has("judge")).toBe(false);
    expect(params.has("bands")).toBe(false);
  });
});
