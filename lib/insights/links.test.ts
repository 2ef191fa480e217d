import { describe, expect, it } from "vitest";
import { HistoryFiltersSchema } from "@/lib/recall-log/history";
import { drill, historyHref, recallHref } from "./links";

const scope = { from: new Date("2025-01-09T05:00:00Z"), to: new Date("2025-01-12T05:00:00Z") };
const read = (href: string) => {
  const url = new URL(href, "http://x");
  expect(url.pathname).toBe("/recalls");
  return HistoryFiltersSchema.parse(Object.fromEntries(url.searchParams));
};

describe("drill-down links", () => {
  it("carry the range and the page's filters in the History's own parameters", () => {
    expect(read(historyHref({ ...scope, store: "beta", selector_model: "gpt-x" }))).toEqual({
      ...scope,
      store: "beta",
      selector_model: "gpt-x",
    });
    expect(read(drill.all(scope))).toEqual(scope);
  });

  it("narrow to what each number counts", () => {
    expect(read(drill.failed(scope))).toEqual({ ...scope, status: "error" });
    expect(read(drill.applied(scope))).toEqual({ ...scope, status: "ok", selector_applied: true });
    expect(read(drill.lostAny(scope))).toEqual({ ...scope, status: "ok", selector_applied: true, has_dropped: true });
    expect(read(drill.notApplied(scope))).toEqual({ ...scope, status: "ok", selector_applied: false });
    expect(read(drill.weakHits(scope))).toEqual({ ...scope, level: ["low", "none"] });
    expect(read(drill.weakVerdicts(scope))).toEqual({ ...scope, verdict: ["low", "none"] });
    expect(read(drill.level(scope, "high"))).toEqual({ ...scope, level: ["high"] });
    expect(read(drill.store({ ...scope, store: "alpha" }, "beta"))).toEqual({ ...scope, store: "beta" });
    expect(read(drill.model(scope, "gpt-x"))).toEqual({ ...scope, selector_model: "gpt-x" });
    expect(read(drill.model({ ...scope, selector_model: "x" }, null))).toEqual({
      ...scope,
      status: "ok",
      selector_applied: true,
    });
    expect(read(drill.droppedMemory(scope, "beta", "b 3/ä"))).toEqual({ ...scope, store: "beta", dropped_memory: "b 3/ä" });
    expect(read(drill.weakKeptAll(scope))).toEqual({
      ...scope,
      level: ["low", "none"],
      selector_applied: true,
      has_dropped: false,
    });
  });

  it("clamps a bucket to the range", () => {
    expect(read(drill.bucket(scope, "2025-01-09T00:00:00.000Z", "2025-01-10T00:00:00.000Z"))).toEqual({
      from: scope.from,
      to: new Date("2025-01-10T00:00:00.000Z"),
    });
  });

  it("opens one recall by id", () => {
    expect(recallHref("3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b")).toBe("/recalls/3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b");
  });
});

describe("drill-downs keep the level filters", () => {
  it("passes verdict, level, profile_level and profile on, and opens a profile's recalls", async () => {
    const { drill } = await import("./links");
    const scope = {
      from: new Date("2025-01-01T00:00:00Z"),
      to: new Date("2025-01-02T00:00:00Z"),
      verdict: ["moderate" as const],
      level: ["low" as const],
      profile_level: ["none" as const],
    };
    const href = new URLSearchParams(drill.all(scope).split("?")[1]);
    expect(href.get("verdict")).toBe("moderate");
    expect(href.get("level")).toBe("low");
    expect(href.get("profile_level")).toBe("none");
    expect(new URLSearchParams(drill.judge(scope, "use-lite").split("?")[1]).get("profile")).toBe("use-lite");
    expect(new URLSearchParams(drill.judge(scope, null).split("?")[1]).has("profile")).toBe(false);
  });
});

describe("drill-downs by source", () => {
  const scope = { from: new Date("2025-01-09T05:00:00Z"), to: new Date("2025-01-12T05:00:00Z") };
  it("pass one source on to History; a set of them cannot be", () => {
    expect(drill.all({ ...scope, sources: ["proxy"] })).toContain("source=proxy");
    expect(drill.all({ ...scope, sources: ["console", "ingest", "proxy", "otel"] })).not.toContain("source=");
    expect(drill.all({ ...scope, sources: null })).not.toContain("source=");
  });
});
