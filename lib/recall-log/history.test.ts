import { describe, expect, it } from "vitest";
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  hasHistoryFilters,
  historyFilterParams,
  HistoryFiltersSchema,
  HistoryQuerySchema,
} from "./history";

const ID = "3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

function parse(params: Record<string, string>) {
  return HistoryQuerySchema.safeParse(params);
}

function issues(params: Record<string, string>) {
  const result = parse(params);
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

describe("HistoryQuerySchema", () => {
  it("defaults: no filters, 50 a page, no cursor", () => {
    expect(HistoryQuerySchema.parse({})).toEqual({ limit: 50 });
  });

  it("parses every filter into its typed form", () => {
    const parsed = HistoryQuerySchema.parse({
      store: "embedded",
      level: "low,high",
      selector_applied: "true",
      has_dropped: "false",
      q: "  Kafka lag ",
      from: "2025-01-01T00:00:00Z",
      to: "2025-01-02T09:30:00+02:00",
      status: "ok",
      source: "ingest",
      limit: "200",
    });
    expect(parsed).toEqual({
      store: "embedded",
      level: ["high", "low"],
      selector_applied: true,
      has_dropped: false,
      q: "Kafka lag",
      from: new Date("2025-01-01T00:00:00.000Z"),
      to: new Date("2025-01-02T07:30:00.000Z"),
      status: "ok",
      source: "ingest",
      limit: 200,
    });
  });

  it("normalizes a level list: strongest first, no duplicates, spaces and case forgiven", () => {
    expect(HistoryQuerySchema.parse({ level: "none, LOW,none,moderate" }).level).toEqual(["moderate", "low", "none"]);
    expect(HistoryQuerySchema.parse({ level: "high" }).level).toEqual(["high"]);
  });

  it("reads the store's verdict levels as a list of its own, beside the reference level", () => {
    expect(HistoryQuerySchema.parse({ verdict: "NONE,low", level: "high" })).toMatchObject({
      verdict: ["low", "none"],
      level: ["high"],
    });
    expect(issues({ verdict: "likely" })).toEqual([{ path: "verdict", message: expect.stringMatching(/^verdict takes/) }]);
    const params = historyFilterParams(HistoryFiltersSchema.parse({ level: "high", verdict: "low", store: "demo" }));
    expect(params.toString()).toBe("store=demo&verdict=low&level=high");
  });

  it("treats empty parameters as not sent, and a blank q as no text filter", () => {
    expect(HistoryQuerySchema.parse({ store: "", level: "", q: "   ", from: "", cursor: "", limit: "" })).toEqual({ limit: 50 });
  });

  it("rejects unknown levels, naming them", () => {
    expect(issues({ level: "high,great" })).toEqual([{ path: "level", message: expect.stringContaining('"great"') }]);
    expect(issues({ level: "," })[0]!.path).toBe("level");
  });

  it("takes booleans only as true or false", () => {
    expect(issues({ selector_applied: "yes" })[0]!.path).toBe("selector_applied");
    expect(issues({ has_dropped: "1" })[0]!.path).toBe("has_dropped");
  });

  it("rejects status and source outside their sets", () => {
    expect(issues({ status: "failed" })[0]!.path).toBe("status");
    expect(issues({ source: "api" })[0]!.path).toBe("source");
  });

  it("caps q at 200 characters (after trimming)", () => {
    expect(HistoryQuerySchema.parse({ q: `  ${"x".repeat(200)}  ` }).q).toHaveLength(200);
    expect(issues({ q: "x".repeat(201) })).toEqual([{ path: "q", message: "q is longer than 200 characters" }]);
  });

  it("takes from/to only as ISO date-times with a zone, and from must come before to", () => {
    expect(issues({ from: "yesterday" })[0]!.path).toBe("from");
    expect(issues({ to: "2025-01-01" })[0]!.path).toBe("to");
    expect(issues({ from: "2025-01-01T00:00:00" })[0]!.path).toBe("from");
    expect(issues({ from: "2025-01-02T00:00:00Z", to: "2025-01-01T00:00:00Z" })).toEqual([
      { path: "from", message: "from must be earlier than to" },
    ]);
    expect(issues({ from: "2025-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z" })[0]!.message).toMatch(/earlier/);
    expect(parse({ from: "2025-01-01T00:00:00Z" }).success).toBe(true);
    expect(parse({ to: "2025-01-01T00:00:00.123Z" }).success).toBe(true);
  });

  it("bounds limit to 1…200 whole numbers", () => {
    expect(HistoryQuerySchema.parse({ limit: "1" }).limit).toBe(1);
    expect(issues({ limit: "0" })[0]!.path).toBe("limit");
    expect(issues({ limit: "201" })[0]!.message).toBe("limit is at most 200");
    expect(issues({ limit: "2.5" })[0]!.path).toBe("limit");
    expect(issues({ limit: "ten" })[0]!.path).toBe("limit");
  });

  it("decodes a cursor it issued, and refuses a bad one with a message to start over", () => {
    const cursor = encodeHistoryCursor({ createdAt: new Date("2025-03-04T05:06:07.089Z"), id: ID });
    expect(HistoryQuerySchema.parse({ cursor }).cursor).toEqual({ createdAt: new Date("2025-03-04T05:06:07.089Z"), id: ID });
    for (const bad of ["garbage!", "abc", Buffer.from("[1,2]").toString("base64url"), "x".repeat(300)]) {
      expect(issues({ cursor: bad })).toEqual([{ path: "cursor", message: expect.stringMatching(/start over/) }]);
    }
  });

  it("takes a selector model and a dropped memory id as exact, trimmed strings", () => {
    expect(HistoryQuerySchema.parse({ selector_model: " gpt-x ", dropped_memory: "mem-0042" })).toEqual({
      selector_model: "gpt-x",
      dropped_memory: "mem-0042",
      limit: 50,
    });
    expect(issues({ selector_model: "x".repeat(201) })[0]!.path).toBe("selector_model");
    expect(issues({ dropped_memory: "x".repeat(201) })[0]!.path).toBe("dropped_memory");
    expect(HistoryQuerySchema.parse({ selector_model: "", dropped_memory: "" })).toEqual({ limit: 50 });
  });

  it("ignores parameters it does not know (e.g. the page's own range preset)", () => {
    expect(HistoryQuerySchema.parse({ range: "7d", store: "embedded" })).toEqual({ store: "embedded", limit: 50 });
  });
});

describe("history cursor", () => {
  it("round-trips created_at (to the millisecond) and id", () => {
    const at = new Date("2024-12-31T23:59:59.999Z");
    const cursor = encodeHistoryCursor({ createdAt: at, id: ID });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHistoryCursor(cursor)).toEqual({ createdAt: at, id: ID });
  });

  it("is base64url of JSON [created_at, id] (the same as Node's encoder)", () => {
    const cursor = encodeHistoryCursor({ createdAt: new Date("2025-01-01T00:00:00.000Z"), id: ID });
    expect(cursor).toBe(Buffer.from(JSON.stringify(["2025-01-01T00:00:00.000Z", ID])).toString("base64url"));
  });

  it("refuses anything else", () => {
    const enc = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    expect(decodeHistoryCursor("")).toBeNull();
    expect(decodeHistoryCursor("not base64!")).toBeNull();
    expect(decodeHistoryCursor("A")).toBeNull();
    expect(decodeHistoryCursor(Buffer.from("not json").toString("base64url"))).toBeNull();
    expect(decodeHistoryCursor(Buffer.from([0xff, 0xfe, 0x00]).toString("base64url"))).toBeNull();
    expect(decodeHistoryCursor(enc({ created_at: "2025-01-01T00:00:00.000Z", id: ID }))).toBeNull();
    expect(decodeHistoryCursor(enc(["2025-01-01T00:00:00.000Z"]))).toBeNull();
    expect(decodeHistoryCursor(enc(["2025-01-01T00:00:00.000Z", "not-a-uuid"]))).toBeNull();
    expect(decodeHistoryCursor(enc(["2025-01-01T00:00:00.000Z", ID.toUpperCase()]))).toBeNull();
    expect(decodeHistoryCursor(enc(["2025-13-01T00:00:00.000Z", ID]))).toBeNull();
    // A date that parses but is not in the form we write (it would not compare like the column).
    expect(decodeHistoryCursor(enc(["2025-01-01", ID]))).toBeNull();
    expect(decodeHistoryCursor(enc([1735689600000, ID]))).toBeNull();
  });
});

describe("filters in a query string", () => {
  it("writes only what is set, in a fixed order, and reads back the same filters", () => {
    const filters = HistoryFiltersSchema.parse({
      q: "deploy",
      level: "none,high",
      to: "2025-02-01T00:00:00Z",
      has_dropped: "true",
      store: "embedded",
    });
    const params = historyFilterParams(filters);
    expect(params.toString()).toBe("store=embedded&level=high%2Cnone&has_dropped=true&q=deploy&to=2025-02-01T00%3A00%3A00.000Z");
    expect(HistoryFiltersSchema.parse(Object.fromEntries(params))).toEqual(filters);
    const drill = HistoryFiltersSchema.parse({ dropped_memory: "m/1 ä", selector_model: "gpt-x", store: "prod" });
    const drillParams = historyFilterParams(drill);
    expect(drillParams.toString()).toBe("store=prod&selector_model=gpt-x&dropped_memory=m%2F1+%C3%A4");
    expect(HistoryFiltersSchema.parse(Object.fromEntries(drillParams))).toEqual(drill);
    expect(hasHistoryFilters({ dropped_memory: "m" })).toBe(true);
    expect(historyFilterParams({}).toString()).toBe("");
  });

  it("knows whether any filter is set", () => {
    expect(hasHistoryFilters({})).toBe(false);
    expect(hasHistoryFilters({ level: [] })).toBe(false);
    expect(hasHistoryFilters({ selector_applied: false })).toBe(true);
  });

  it("the filters schema carries no paging", () => {
    expect(HistoryFiltersSchema.parse({ limit: "5", cursor: "x" })).toEqual({});
  });
});
