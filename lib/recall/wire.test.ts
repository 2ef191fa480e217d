import { describe, expect, it } from "vitest";
import { decodeRecallResponse, decodeSelectorBlock, degradedFromWire, UNSPECIFIED_DEGRADED_REASON } from "./wire";

describe("the one wire rule for a selector block", () => {
  it("keeps a valid block as sent and a missing one as null", () => {
    expect(decodeSelectorBlock({ applied: true, dropped: 2 })).toEqual({ selector: { applied: true, dropped: 2 }, warnings: [] });
    expect(decodeSelectorBlock(undefined)).toEqual({ selector: null, warnings: [] });
    expect(decodeSelectorBlock(null)).toEqual({ selector: null, warnings: [] });
  });

  it("drops a malformed block with a warning naming the field", () => {
    const { selector, warnings } = decodeSelectorBlock({ applied: "yes" });
    expect(selector).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/selector block was malformed and is ignored \(selector\.applied: /);
  });

  it("a response with a malformed selector still decodes; other problems do not", () => {
    const ok = decodeRecallResponse({ results: [], selector: { applied: 3 } });
    expect(ok.success).toBe(true);
    if (ok.success) {
      expect(ok.response.selector).toBeUndefined();
      expect(ok.warnings).toHaveLength(1);
    }
    const bad = decodeRecallResponse({ results: "none", selector: { applied: 3 } });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.issues.map((i) => i.path[0])).toEqual(["results"]);
  });
});

describe("degradedFromWire", () => {
  it("one default when the service gives no reason", () => {
    expect(degradedFromWire({ degraded: true })).toEqual({ reason: UNSPECIFIED_DEGRADED_REASON });
    expect(degradedFromWire({ degraded: true, degraded_reason: "embedding_unavailable" })).toEqual({
      reason: "embedding_unavailable",
    });
    expect(degradedFromWire({ degraded: false })).toBeUndefined();
    expect(degradedFromWire({})).toBeUndefined();
  });
});
