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

describe("search mode: Auto unless the user picked one", () => {
  it("the form starts on Auto and sends no mode; a picked mode is sent", () => {
    expect(DEFAULT_FORM.search_mode).toBe("auto");
    const auto = bodyFromForm({ ...DEFAULT_FORM, query: "q" });
    expect(auto).not.toHaveProperty("search_mode");
    expect(RecallBodySchema.parse(auto).search_mode).toBeUndefined();
    expect(bodyFromForm({ ...DEFAULT_FORM, query: "q", search_mode: "keyword" }).search_mode).toBe("keyword");
  });

  it("a recall that left the mode to the store reopens on Auto", () => {
    expect(formFromRequest({ ...base, search_mode: "hybrid", search_mode_auto: true }).form.search_mode).toBe("auto");
    expect(formFromRequest({ ...base, search_mode: "hybrid" }).form.search_mode).toBe("hybrid");
    expect(rerunBody({ ...base, search_mode: "hybrid", search_mode_auto: true }, { k: 20 })).not.toHaveProperty("search_mode");
  });
});

describe("use_rerank: the store's setting unless ticked", () => {
  it("an unticked Rerank sends none (the API leaves it unset); a ticked one sends true", () => {
    const unticked = bodyFromForm({ ...DEFAULT_FORM, query: "q" });
    expect(unticked).not.toHaveProperty("use_rerank");
    expect(RecallBodySchema.parse(unticked).use_rerank).toBeUndefined();
    expect(bodyFromForm({ ...DEFAULT_FORM, query: "q", use_rerank: true }).use_rerank).toBe(true);
  });
});
