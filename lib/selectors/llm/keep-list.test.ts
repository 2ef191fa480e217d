import { describe, expect, it } from "vitest";
import { LLM_SELECTOR_MAX_ANSWER_CHARS, parseKeepList } from "@/lib/selectors/llm";

const PAGE = ["m1", "m2", "m3", "m4", "m5"];
const kept = (content: string, page: readonly string[] = PAGE) => parseKeepList(content, page);

describe("parseKeepList: accepted answers", () => {
  it("a bare JSON object; ids come back in page order whatever the answer's order", () => {
    expect(kept('{"keep": ["m3", "m1"]}')).toEqual({ ok: true, keptIds: ["m1", "m3"], keep: ["m3", "m1"] });
    expect(kept('  \n{"keep":["m5"]}\n')).toMatchObject({ ok: true, keptIds: ["m5"] });
  });

  it("duplicates collapse", () => {
    expect(kept('{"keep": ["m2", "m2", "m4", "m2"]}')).toMatchObject({ ok: true, keptIds: ["m2", "m4"] });
  });

  it("an empty keep list is valid: everything is dropped", () => {
    expect(kept('{"keep": []}')).toMatchObject({ ok: true, keptIds: [] });
  });

  it("keeping every id is valid", () => {
    expect(kept(JSON.stringify({ keep: PAGE }))).toMatchObject({ ok: true, keptIds: PAGE });
  });

  it("prose before and after the object", () => {
    expect(kept('Sure! Here are the relevant ones:\n{"keep": ["m1", "m4"]}\nLet me know if you need more.')).toMatchObject({
      ok: true,
      keptIds: ["m1", "m4"],
    });
  });

  it("a ```json code fence, with or without prose and language tag", () => {
    expect(kept('```json\n{"keep": ["m2"]}\n```')).toMatchObject({ ok: true, keptIds: ["m2"] });
    expect(kept('```\n{"keep": ["m2", "m3"]}\n```')).toMatchObject({ ok: true, keptIds: ["m2", "m3"] });
    expect(kept('The answer:\n\n```json\n{\n  "keep": [\n    "m5"\n  ]\n}\n```\n\nDone.')).toMatchObject({
      ok: true,
      keptIds: ["m5"],
    });
  });

  it("prose braces that are not JSON do not count", () => {
    expect(kept('I looked at {the page} and {m1, m2}: {"keep": ["m1"]}')).toMatchObject({ ok: true, keptIds: ["m1"] });
  });

  it("braces and quotes inside id strings do not confuse the scan", () => {
    const page = ["a{1}", 'b"}', "c"];
    expect(parseKeepList(`Here: ${JSON.stringify({ keep: ['b"}', "a{1}"] })} ok`, page)).toMatchObject({
      ok: true,
      keptIds: ["a{1}", 'b"}'],
    });
  });

  it("other keys beside keep are ignored", () => {
    expect(kept('{"keep": ["m1"], "reason": "only m1 is about the query", "drop": ["m2"]}')).toMatchObject({
      ok: true,
      keptIds: ["m1"],
    });
  });

  it("a reasoning model's <think> block is ignored, even when it holds JSON", () => {
    expect(kept('<think>maybe {"keep": ["m1","m2"]}? no.</think>\n{"keep": ["m2"]}')).toMatchObject({
      ok: true,
      keptIds: ["m2"],
    });
  });

  it("ids are matched exactly (case and whitespace count) — UUIDs as the stores use them", () => {
    const page = ["7b0c1e3a-0000-4000-8000-000000000001", "7b0c1e3a-0000-4000-8000-000000000002"];
    expect(parseKeepList(`{"keep": ["${page[1]}"]}`, page)).toMatchObject({ ok: true, keptIds: [page[1]] });
    expect(parseKeepList(`{"keep": ["${page[1]!.toUpperCase()}"]}`, page)).toMatchObject({ ok: false, reason: "unknown_id" });
    expect(kept('{"keep": [" m1"]}')).toMatchObject({ ok: false, reason: "unknown_id" });
  });
});

describe("parseKeepList: unknown ids", () => {
  it("one id not on the page voids the whole answer, listing the unknown ids", () => {
    expect(kept('{"keep": ["m1", "m9"]}')).toMatchObject({
      ok: false,
      reason: "unknown_id",
      detail: 'Not on the page: "m9".',
      unknownIds: ["m9"],
    });
  });

  it("extra invented ids, the numbers as strings, and an empty string are unknown", () => {
    expect(kept('{"keep": ["m1", "m2", "m3", "m4", "m5", "m6"]}')).toMatchObject({
      ok: false,
      reason: "unknown_id",
      unknownIds: ["m6"],
    });
    expect(kept('{"keep": ["1", "2"]}')).toMatchObject({ ok: false, reason: "unknown_id", unknownIds: ["1", "2"] });
    expect(kept('{"keep": [""]}')).toMatchObject({ ok: false, reason: "unknown_id" });
  });

  it("lists at most five in the detail, deduplicated", () => {
    const r = kept(JSON.stringify({ keep: ["x1", "x2", "x1", "x3", "x4", "x5", "x6", "x7"] }));
    expect(r).toMatchObject({ ok: false, reason: "unknown_id", unknownIds: ["x1", "x2", "x3", "x4", "x5", "x6", "x7"] });
    if (!r.ok) expect(r.detail).toBe('Not on the page: "x1", "x2", "x3", "x4", "x5" and 2 more.');
  });

  it("any id is unknown on an empty page", () => {
    expect(parseKeepList('{"keep": ["m1"]}', [])).toMatchObject({ ok: false, reason: "unknown_id" });
    expect(parseKeepList('{"keep": []}', [])).toMatchObject({ ok: true, keptIds: [] });
  });
});

describe("parseKeepList: unparseable answers", () => {
  const unparseable = (content: string, detail?: RegExp) => {
    const r = kept(content);
    expect(r, content).toMatchObject({ ok: false, reason: "unparseable" });
    if (detail && !r.ok) expect(r.detail).toMatch(detail);
  };

  it("not JSON at all", () => {
    unparseable("m1, m3 and m4 are relevant.", /No JSON object/);
    unparseable("", /No JSON object/);
    unparseable("keep: [m1]", /No JSON object/);
    unparseable("{keep: ['m1']}", /No JSON object/);
    unparseable('{"keep": ["m1",]}', /No JSON object/);
    unparseable('{"keep": ["m1"]', /No JSON object/);
  });

  it("JSON that is not an object", () => {
    unparseable('["m1", "m2"]', /not an object/);
    unparseable('"m1"', /not an object/);
    unparseable("null", /not an object/);
    unparseable("42", /not an object/);
  });

  it("an object without a keep list, or a keep that is not an array", () => {
    unparseable('{"ids": ["m1"]}', /no "keep"/);
    unparseable('{"result": {"keep": ["m1"]}}', /no "keep"/);
    unparseable('{"Keep": ["m1"]}', /no "keep"/);
    unparseable('{"keep": "m1"}', /not an array/);
    unparseable('{"keep": {"m1": true}}', /not an array/);
    unparseable('{"keep": null}', /not an array/);
  });

  it("entries that are not strings (wrong types)", () => {
    unparseable('{"keep": [1, 3]}', /entry 1 is not a string id: 1/);
    unparseable('{"keep": ["m1", null]}', /entry 2/);
    unparseable('{"keep": ["m1", ["m2"]]}', /entry 2/);
    unparseable('{"keep": [{"id": "m1"}]}', /entry 1/);
  });

  it("more than one JSON object is ambiguous", () => {
    unparseable('First guess {"keep": ["m1"]}, final answer {"keep": ["m1", "m2"]}', /2 JSON objects/);
    unparseable('```json\n{"keep": ["m1"]}\n```\n```json\n{"keep": ["m2"]}\n```', /2 JSON objects/);
  });

  it("an answer longer than the cap is not searched", () => {
    unparseable(`${" ".repeat(LLM_SELECTOR_MAX_ANSWER_CHARS)}{"keep": ["m1"]}`, /at most/);
  });

  it("the detail quotes a short, flattened snippet of the answer", () => {
    const r = kept(`nothing\n\nhere ${"x".repeat(500)}`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.detail).not.toContain("\n");
      expect(r.detail.length).toBeLessThan(200);
    }
  });
});
