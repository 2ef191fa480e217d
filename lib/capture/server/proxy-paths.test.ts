import { describe, expect, it } from "vitest";
import { restOfPath, withNoTransform } from "./proxy";
import { isRecallCall } from "./proxy-capture";

describe("the proxy's paths", () => {
  it("keeps the rest of the path as sent, percent-encoding and all", () => {
    expect(restOfPath("/proxy/prod/api/v1/memory/recall", "prod")).toBe("/api/v1/memory/recall");
    expect(restOfPath("/proxy/prod/api/v1/memory/a%2Fb", "prod")).toBe("/api/v1/memory/a%2Fb");
    expect(restOfPath("/proxy/prod", "prod")).toBe("/");
    expect(restOfPath("/proxy/prod/", "prod")).toBe("/");
  });

  it("adds no-transform to Cache-Control once", () => {
    expect(withNoTransform(null)).toBe("no-transform");
    expect(withNoTransform("private, max-age=0")).toBe("private, max-age=0, no-transform");
    expect(withNoTransform("No-Transform, max-age=5")).toBe("No-Transform, max-age=5");
  });

  it("logs only the REST recall", () => {
    expect(isRecallCall("POST", "/api/v1/memory/recall")).toBe(true);
    expect(isRecallCall("post", "/api/v1/memory/recall/")).toBe(true);
    expect(isRecallCall("GET", "/api/v1/memory/recall")).toBe(false);
    expect(isRecallCall("POST", "/api/v1/memory/remember")).toBe(false);
    expect(isRecallCall("POST", "/api/v1/memory/recall-stats")).toBe(false);
  });
});
