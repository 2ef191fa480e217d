import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  dateProblem,
  describeProblem,
  findInputProblems,
  isoDateTime,
  problemPath,
  replaceBadText,
  textProblem,
  untrustedJsonProblem,
  withInputRules,
} from "./input-rules";

describe("the shared input rule", () => {
  it("refuses NUL and unpaired surrogates, accepts paired ones", () => {
    expect(textProblem("a\u0000b")).toMatch(/NUL/);
    expect(textProblem("a\uD800")).toMatch(/surrogate/);
    expect(textProblem("\uDC00a")).toMatch(/surrogate/);
    expect(textProblem("\uDC00\uD800")).toMatch(/surrogate/);
    expect(textProblem("emoji 😀 ok, Ünïcode ok")).toBeNull();
  });

  it("keeps dates to 1970–9999", () => {
    expect(dateProblem(new Date("1970-01-01T00:00:00Z"))).toBeNull();
    expect(dateProblem(new Date("9999-12-31T23:59:59.999Z"))).toBeNull();
    expect(dateProblem(new Date("1969-12-31T23:59:59.999Z"))).toMatch(/1970–9999/);
    expect(dateProblem(new Date(8.64e15))).toMatch(/1970–9999/);
    expect(isoDateTime().safeParse("0000-01-01T00:00:00Z").success).toBe(false);
    expect(isoDateTime().safeParse("2025-01-01T00:00:00+02:00").success).toBe(true);
  });

  it("walks keys, values and Dates in document order, iteratively, with a depth cap", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInputProblems(deep)).toEqual(
      [{ path: [], rule: "depth", message: expect.stringMatching(/nested more than 32/) }].map((p) => ({
        ...p,
        path: new Array(32).fill(0),
      })),
    );
    expect(findInputProblems({ a: ["ok", "x\u0000"], ["k\u0000"]: 1, d: new Date(-1) }).map((p) => p.path)).toEqual([
      [],
      ["a", 1],
      ["d"],
    ]);
    expect(findInputProblems({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toHaveLength(1);
    expect(findInputProblems({ a: { b: 1 } }, { maxDepth: 2 })).toHaveLength(0);
  });

  it("as a refinement keeps the schema's type and reports paths", () => {
    const schema = withInputRules(z.looseObject({ q: z.string() }));
    const result = schema.safeParse({ q: "fine", extra: { deep: "\u0000" } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["extra", "deep"]);
    expect(schema.parse({ q: "fine" }).q).toBe("fine");
  });
});

describe("the rule for untrusted JSON", () => {
  it("names the rule a value breaks: depth, size, string length, text", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = { x: deep };
    expect(untrustedJsonProblem(deep)).toMatchObject({ rule: "depth", message: expect.stringMatching(/more than 64 levels/) });
    let ok: unknown = 1;
    for (let i = 0; i < 64; i++) ok = [ok];
    expect(untrustedJsonProblem(ok)).toBeNull();
    expect(untrustedJsonProblem({ results: new Array(300_000).fill(0) })).toMatchObject({ rule: "size", path: ["results"] });
    expect(untrustedJsonProblem({ a: "x".repeat(1_000_001) })).toMatchObject({ rule: "string_length", path: ["a"] });
    expect(untrustedJsonProblem({ results: [{ summary: "a\u0000b" }] })).toMatchObject({
      rule: "text",
      path: ["results", 0, "summary"],
    });
    expect(untrustedJsonProblem({ ["k\uD800"]: 1 })).toMatchObject({ rule: "text", message: expect.stringMatching(/^a key/) });
    expect(untrustedJsonProblem({ results: [{ memory_id: "m", summary: "😀 fine", score: 0.5 }] })).toBeNull();
  });

  it("counts values without queueing them: a million-item array is refused at once", () => {
    const started = performance.now();
    expect(untrustedJsonProblem(new Array(1_000_000).fill({ a: 1 }))).toMatchObject({ rule: "size" });
    expect(performance.now() - started).toBeLessThan(5_000); // a guard against queueing, not a timing claim
  });

  it("describes a problem in one line with a bounded path", () => {
    const path = Array.from({ length: 40 }, (_, i) => (i % 2 ? i : "k".repeat(100)));
    const text = describeProblem({ path, message: "nested more than 64 levels deep", rule: "depth" });
    expect(text).toMatch(/^k{39}…\.1\./);
    expect(text).toMatch(/\.…: nested more than 64 levels deep \(rule: depth\)$/);
    expect(problemPath([])).toBe("(the whole value)");
    expect(replaceBadText("a\u0000b\uD800c😀")).toBe("a\uFFFDb\uFFFDc😀");
  });
});
