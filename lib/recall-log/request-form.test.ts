import { describe, expect, it } from "vitest";
import { RecallBodySchema } from "@/lib/recall-log/schemas";
import type { LoggedRequest } from "@/lib/recall-log/types";
import { DEFAULT_FORM, bodyFromForm, filtersText, formFromRequest, rerunBody, splitList } from "./request-form";

const base: LoggedRequest = {
  store: "agent-prod",
  query: "what is Maya allergic to?",
  k: 20,
  search_mode: "semantic",
  use_rerank: true,
  selector: "llm",
};

describe("formFromRequest", () => {
  it("shows exactly what the recall asked, store and selector included", () => {
    const { form, unsupportedFilters } = formFromRequest(base);
    expect(form).toEqual({
      store: "agent-prod",
      query: "what is Maya allergic to?",
      k: 20,
      search_mode: "semantic",
      selector: "llm",
      use_rerank: true,
      types: "",
      tags: "",
      tags_match: "any",
    });
    expect(unsupportedFilters).toEqual([]);
  });

  it("reads the console's filters and an ingested recall's reference filters alike", () => {
    expect(
      formFromRequest({ ...base, filters: { types: ["fact", "preference"], tags: ["health"], tags_match: "all" } }).form,
    ).toMatchObject({ types: "fact, preference", tags: "health", tags_match: "all" });
    const ingested = formFromRequest({
      ...base,
      filters: { type: "fact", tags: ["a", "b"], scope: "persistent", created_after: "2026-01-01", client: null },
    });
    expect(ingested.form).toMatchObject({ types: "fact", tags: "a, b", tags_match: "any" });
    expect(ingested.unsupportedFilters).toEqual(["created_after", "scope"]);
  });
});

describe("bodyFromForm", () => {
  it("sends filters only when set, and the body passes the API's schema", () => {
    const plain = bodyFromForm({ ...DEFAULT_FORM, query: "q" });
    expect(plain).not.toHaveProperty("filters");
    const filtered = bodyFromForm({
      ...DEFAULT_FORM,
      query: "q",
      types: " fact,, preference ,fact",
      tags: "x",
      tags_match: "all",
    });
    expect(filtered.filters).toEqual({ types: ["fact", "preference"], tags: ["x"], tags_match: "all" });
    expect(RecallBodySchema.safeParse(filtered).success).toBe(true);
  });

  it("round-trips a logged request", () => {
    const request: LoggedRequest = { ...base, filters: { types: ["fact"], tags: ["t1", "t2"], tags_match: "all" } };
    const body = bodyFromForm(formFromRequest(request).form);
    expect(body).toEqual({ ...request });
  });
});

describe("rerunBody and filtersText", () => {
  it("runs a logged request again with k or the mode changed", () => {
    expect(rerunBody(base, { k: 20, search_mode: "hybrid" })).toMatchObject({
      k: 20,
      search_mode: "hybrid",
      query: base.query,
      selector: "llm",
    });
  });

  it("says the filters in a few words", () => {
    expect(filtersText(base)).toBeNull();
    expect(filtersText({ ...base, filters: { type: "fact", tags: ["a"], scope: "x" } })).toBe(
      "types: fact · tags (any): a · also scope",
    );
    expect(splitList("a, b,a")).toEqual(["a", "b"]);
  });
});
