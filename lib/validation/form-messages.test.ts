import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import { MemoryInputSchema } from "@/lib/stores/memory-schemas";
import { fieldLabel, parseForm } from "./form-messages";

const failed = (result: ReturnType<typeof parseForm>) => {
  if (result.success) throw new Error("expected the form to fail");
  return result;
};

describe("parseForm", () => {
  it("words an emptied number field with its range instead of zod's 'expected number, received NaN'", () => {
    const result = failed(parseForm(RecallBodySchema, { query: "kafka", k: Number.NaN }, { k: "k" }));
    expect(result.fields.k).toEqual(["Enter a whole number from 1 to 100 for k."]);
    expect(result.messages.join(" ")).not.toMatch(/expected|received|NaN|Invalid input/);
  });

  it("says the bound a number broke, and that it must be whole", () => {
    expect(failed(parseForm(RecallBodySchema, { query: "kafka", k: 500 }, { k: "k" })).fields.k).toEqual([
      "k must be at most 100.",
    ]);
    expect(failed(parseForm(RecallBodySchema, { query: "kafka", k: 0 }, { k: "k" })).fields.k).toEqual(["k must be at least 1."]);
    expect(failed(parseForm(RecallBodySchema, { query: "kafka", k: 2.5 }, { k: "k" })).fields.k).toEqual([
      "k must be a whole number.",
    ]);
  });

  it("keeps a schema's own message, naming the field once", () => {
    const result = failed(parseForm(RecallBodySchema, { query: "   " }, { query: "Query" }));
    expect(result.fields.query).toEqual(["Query is empty."]);
    const memory = failed(parseForm(MemoryInputSchema, { summary: "x", id: "-bad" }));
    expect(memory.fields.id).toEqual(["Id may hold letters, digits and . _ : - and must start with a letter or digit."]);
  });

  it("words choices, lengths, lists, unknown keys and missing fields", () => {
    const schema = z.strictObject({
      mode: z.enum(["hybrid", "semantic"]),
      name: z.string().min(1).max(5),
      tags: z.array(z.string()).min(1),
      when: z.iso.datetime(),
      flag: z.boolean(),
    });
    const result = failed(
      parseForm(schema, { mode: "fast", name: "toolong", tags: [], when: "yesterday", extra: 1 }, { mode: "Search mode" }),
    );
    expect(result.fields).toEqual({
      mode: ["Choose Search mode from: hybrid, semantic."],
      name: ["Name is longer than 5 characters: shorten it."],
      tags: ["Add at least one to Tags."],
      when: ["When must be a date and time (ISO 8601)."],
      flag: ["Flag is required."],
    });
    expect(result.general).toEqual(["Unknown field: extra."]);
    expect(failed(parseForm(schema.pick({ name: true }), { name: "" })).fields.name).toEqual(["Name is empty: enter something."]);
  });

  it("passes good values through as the schema's output", () => {
    expect(parseForm(RecallBodySchema, { query: "kafka", k: 3 })).toEqual({
      success: true,
      data: expect.objectContaining({ query: "kafka", k: 3, selector: "off" }),
    });
  });
});

describe("fieldLabel", () => {
  it("uses the form's label, numbers list items, and turns keys into words otherwise", () => {
    expect(fieldLabel(["k"], { k: "k" })).toBe("k");
    expect(fieldLabel(["tags", 2], { tags: "Tag" })).toBe("Tag 3");
    expect(fieldLabel(["search_mode"])).toBe("Search mode");
    expect(fieldLabel([])).toBe("This field");
  });
});
