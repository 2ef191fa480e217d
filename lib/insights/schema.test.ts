import { describe, expect, it } from "vitest";
import { estimateBuckets, insightsQuerySchema, isTimeZoneName, MAX_INSIGHT_BUCKETS } from "./schema";

const now = new Date("2025-06-01T12:00:00Z");
const schema = insightsQuerySchema(() => now);
const issues = (params: Record<string, string>) => {
  const result = schema.safeParse(params);
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
};

describe("InsightsQuerySchema", () => {
  it("defaults to the 30 days up to now, day buckets, UTC", () => {
    expect(schema.parse({})).toEqual({
      from: new Date("2025-05-02T12:00:00Z"),
      to: now,
      bucket: "day",
      tz: "UTC",
      store: undefined,
      selector_model: undefined,
      // Evaluation runs are test traffic: left out unless asked for.
      sources: ["console", "ingest", "proxy", "otel"],
    });
  });

  it("takes one source or all of them", () => {
    expect(schema.parse({ source: "all" }).sources).toEqual(["console", "ingest", "proxy", "otel", "eval"]);
    expect(schema.parse({ source: "eval" }).sources).toEqual(["eval"]);
    expect(schema.parse({ source: "" }).sources).toEqual(["console", "ingest", "proxy", "otel"]);
    expect(issues({ source: "tests" })[0]!.path).toBe("source");
  });

  it("parses every parameter, empty ones counting as unsent", () => {
    expect(
      schema.parse({
        from: "2025-01-01T00:00:00+01:00",
        to: "2025-01-02T00:00:00Z",
        bucket: "hour",
        tz: "Asia/Kolkata",
        store: " beta ",
        selector_model: "gpt-x",
        cursor: "",
      }),
    ).toEqual({
      from: new Date("2024-12-31T23:00:00Z"),
      to: new Date("2025-01-02T00:00:00Z"),
      bucket: "hour",
      tz: "Asia/Kolkata",
      store: "beta",
      selector_model: "gpt-x",
      sources: ["console", "ingest", "proxy", "otel"],
    });
    expect(schema.parse({ store: "", tz: "" })).toMatchObject({ tz: "UTC", store: undefined });
    // `to` alone: the 30 days before it.
    expect(schema.parse({ to: "2025-01-31T00:00:00Z" }).from).toEqual(new Date("2025-01-01T00:00:00Z"));
  });

  it("rejects a reversed range, unknown buckets and too many buckets", () => {
    expect(issues({ from: "2025-02-01T00:00:00Z", to: "2025-01-01T00:00:00Z" })).toEqual([
      { path: "from", message: "from must be earlier than to" },
    ]);
    expect(issues({ bucket: "month" })[0]!.path).toBe("bucket");
    const many = issues({ from: "2025-01-01T00:00:00Z", to: "2025-06-01T00:00:00Z", bucket: "hour" });
    expect(many[0]!.path).toBe("bucket");
    expect(many[0]!.message).toMatch(/3,625 hour buckets; the limit is 2,000/);
    expect(schema.safeParse({ from: "2025-01-01T00:00:00Z", to: "2025-03-24T00:00:00Z", bucket: "hour" }).success).toBe(true); // 82 days
  });

  it("counts buckets generously (either end may cut into one more)", () => {
    expect(estimateBuckets(new Date("2025-01-01T00:00:00Z"), new Date("2025-01-02T00:00:00Z"), "hour")).toBe(25);
    expect(estimateBuckets(new Date("2025-01-01T00:00:00Z"), new Date("2025-01-31T00:00:00Z"), "day")).toBe(31);
    expect(MAX_INSIGHT_BUCKETS).toBe(2000);
  });
});

describe("isTimeZoneName", () => {
  it("takes IANA names (and their aliases) and UTC", () => {
    for (const tz of [
      "UTC",
      "Europe/Berlin",
      "America/Argentina/Buenos_Aires",
      "Asia/Calcutta",
      "Asia/Kolkata",
      "Etc/GMT+5",
      "America/Port-au-Prince",
    ]) {
      expect(isTimeZoneName(tz), tz).toBe(true);
    }
  });
  it("refuses offsets (PostgreSQL would read them with the opposite sign) and made-up names", () => {
    for (const tz of [
      "+02:00",
      "-0500",
      "UTC+2",
      "GMT-3",
      "Mars/Olympus_Mons",
      "",
      "Europe/Berlin; DROP TABLE recalls",
      "../etc/passwd",
    ]) {
      expect(isTimeZoneName(tz), tz).toBe(false);
    }
  });
});
