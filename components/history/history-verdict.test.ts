import { describe, expect, it } from "vitest";
import { verdictCell } from "./history-verdict";

const row = (r: Partial<Parameters<typeof verdictCell>[0]> = {}): Parameters<typeof verdictCell>[0] => ({
  status: "ok",
  level: "moderate",
  profile_name: null,
  profile_level: null,
  profile_probability: null,
  ...r,
});

describe("verdictCell", () => {
  it("leads with the profile's level and probability, the reference level beside it", () => {
    const cell = verdictCell(row({ level: "high", profile_name: "use-lite", profile_level: "low", profile_probability: 0.3149 }));
    expect(cell).toMatchObject({ level: "low", by: "profile", probability: "31%", note: "reference: high" });
    expect(cell.title).toBe(
      "The store's verdict under profile use-lite: low (31% likely that something relevant is stored). " +
        "The reference rules said high, what the agent saw; they disagree (go external vs worth reading).",
    );
  });

  it("gives no probability for a profile of the old shape, and says nothing of disagreement when both read the same", () => {
    const cell = verdictCell(row({ level: "moderate", profile_name: "strict", profile_level: "high" }));
    expect(cell).toMatchObject({ level: "high", by: "profile", probability: null, note: "reference: moderate" });
    expect(cell.title).toBe(
      "The store's verdict under profile strict: high. The reference rules said moderate, what the agent saw.",
    );
  });

  it("says once that the reference rules gave the verdict where no profile judged the recall", () => {
    const cell = verdictCell(row({ level: "none" }));
    expect(cell).toMatchObject({ level: "none", by: "reference", probability: null, note: "reference rules" });
    expect(cell.title).toContain("its verdict is the reference rules' level, none, what the agent saw");
    // A stray probability without a profile is not shown.
    expect(verdictCell(row({ profile_probability: 0.9 })).probability).toBeNull();
  });

  it("names an unknown reference level as unknown, and gives a failed recall no level", () => {
    expect(verdictCell(row({ level: null, profile_name: "p", profile_level: "low" })).note).toBe("reference: unknown");
    expect(verdictCell(row({ status: "error", level: null }))).toMatchObject({ level: null, by: "failed", note: null });
  });

  it("writes the probability's extremes as the console does", () => {
    const at = (p: number) => verdictCell(row({ profile_name: "p", profile_level: "high", profile_probability: p })).probability;
    expect(at(0.999)).toBe(">99%");
    expect(at(0.001)).toBe("<1%");
    expect(at(Number.NaN)).toBeNull();
  });
});
