import { describe, expect, it } from "vitest";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { parseForm } from "@/lib/validation/form-messages";
import { EvalRunBodySchema } from "./run-schemas";

const SET = "6f1c1b1e-3c1d-4c55-9a7e-2f0d6d8f1a10";
const labels = { k: "k" };

describe("EvalRunBodySchema", () => {
  it("refuses k = 0 as the console's recall schema does, in the same words", () => {
    for (const k of [0, -1, 101, 2.5, Number.NaN]) {
      const evaluate = parseForm(EvalRunBodySchema, { dataset_id: SET, k }, labels);
      const onConsole = parseForm(RecallBodySchema, { query: "who is on call", k }, labels);
      expect(evaluate.success, `k = ${k}`).toBe(false);
      expect(onConsole.success).toBe(false);
      if (!evaluate.success && !onConsole.success) expect(evaluate.fields.k).toEqual(onConsole.fields.k);
    }
    const zero = parseForm(EvalRunBodySchema, { dataset_id: SET, k: 0 }, labels);
    expect(zero.success ? [] : zero.fields.k).toEqual(["k must be at least 1."]);
  });

  it("takes the console's defaults and choices (no store: the server's default store)", () => {
    expect(EvalRunBodySchema.parse({ dataset_id: SET })).toEqual({
      dataset_id: SET,
      k: 5,
      search_mode: "hybrid",
      selector: "off",
      use_rerank: false,
    });
    expect(EvalRunBodySchema.safeParse({ dataset_id: SET, selector: "random" }).success).toBe(false);
    expect(RecallBodySchema.safeParse({ query: "q", selector: "random" }).success).toBe(false);
  });
});
