import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeSelector } from "@/lib/recall/selector-block";
import { selectorReasonKind, selectorReasonLabel } from "@/lib/recall/selector-reasons";
import {
  availableSelectors,
  createSelector,
  LLM_SELECTOR_DEFAULT_TIMEOUT_MS,
  LLM_SELECTOR_HINT,
  readLlmSelectorConfig,
  runSelector,
  SELECTOR_REASONS,
  SelectorConfigError,
} from "@/lib/selectors";
import { chatCompletionsUrl, LLM_SELECTOR_MAX_TIMEOUT_MS } from "@/lib/selectors/llm";
import type { SelectorPageItem } from "@/lib/selectors/types";
import { startFakeLlm, type FakeLlm } from "@/tests/support/fake-llm";

const PAGE: SelectorPageItem[] = [
  { memory_id: "a", summary: "alpha", score: 0.9, raw_cosine: 0.8 },
  { memory_id: "b", summary: "beta", score: 0.8, raw_cosine: 0.78 },
  { memory_id: "c", summary: "gamma", score: 0.5, raw_cosine: 0.2 },
];

describe("readLlmSelectorConfig", () => {
  it("is null unless both the base URL and the model are set (blank counts as unset)", () => {
    expect(readLlmSelectorConfig({})).toBeNull();
    expect(readLlmSelectorConfig({ SELECTOR_LLM_BASE_URL: "http://127.0.0.1:11434/v1" })).toBeNull();
    expect(readLlmSelectorConfig({ SELECTOR_LLM_MODEL: "llama3.1" })).toBeNull();
    expect(readLlmSelectorConfig({ SELECTOR_LLM_BASE_URL: "  ", SELECTOR_LLM_MODEL: "llama3.1" })).toBeNull();
    expect(readLlmSelectorConfig({ SELECTOR_LLM_BASE_URL: "http://x/v1", SELECTOR_LLM_MODEL: "" })).toBeNull();
  });

  it("reads the four variables, trims them, drops trailing slashes, defaults the timeout to 15000", () => {
    expect(LLM_SELECTOR_DEFAULT_TIMEOUT_MS).toBe(15_000);
    expect(
      readLlmSelectorConfig({ SELECTOR_LLM_BASE_URL: " http://127.0.0.1:11434/v1/ ", SELECTOR_LLM_MODEL: " llama3.1:8b " }),
    ).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "llama3.1:8b",
      timeoutMs: 15_000,
    });
    expect(
      readLlmSelectorConfig({
        SELECTOR_LLM_BASE_URL: "https://api.openai.com/v1",
        SELECTOR_LLM_MODEL: "gpt-4o-mini",
        SELECTOR_LLM_API_KEY: "sk-abc",
        SELECTOR_LLM_TIMEOUT_MS: "2500",
      }),
    ).toEqual({ baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini", apiKey: "sk-abc", timeoutMs: 2_500 });
    expect(chatCompletionsUrl("https://api.openai.com/v1")).toBe("https://api.openai.com/v1/chat/completions");
  });

  it("throws SelectorConfigError for a set but invalid value", () => {
    const base = { SELECTOR_LLM_BASE_URL: "http://127.0.0.1:8080/v1", SELECTOR_LLM_MODEL: "m" };
    for (const timeout of ["0", "-5", "1.5", "abc", "15s", String(LLM_SELECTOR_MAX_TIMEOUT_MS + 1)]) {
      expect(() => readLlmSelectorConfig({ ...base, SELECTOR_LLM_TIMEOUT_MS: timeout }), timeout).toThrow(SelectorConfigError);
    }
    expect(readLlmSelectorConfig({ ...base, SELECTOR_LLM_TIMEOUT_MS: String(LLM_SELECTOR_MAX_TIMEOUT_MS) })?.timeoutMs).toBe(
      600_000,
    );
    expect(() => readLlmSelectorConfig({ ...base, SELECTOR_LLM_BASE_URL: "localhost:8080" })).toThrow(SelectorConfigError);
    expect(() => readLlmSelectorConfig({ ...base, SELECTOR_LLM_BASE_URL: "not a url" })).toThrow(/not a valid URL/);
    expect(() => readLlmSelectorConfig({ ...base, SELECTOR_LLM_BASE_URL: "ftp://host/v1" })).toThrow(/http\(s\)/);
    expect(() => readLlmSelectorConfig({ ...base, SELECTOR_LLM_BASE_URL: "https://user:secret@host/v1" })).toThrow(/credentials/);
  });
});

describe("createSelector", () => {
  it("gap is always available", () => {
    const created = createSelector("gap", {});
    expect(created.selector?.id).toBe("gap");
    expect(created.selector?.model).toBe("score-gap");
  });

  it("llm without configuration → null with a not_configured block and the hint", () => {
    const created = createSelector("llm", {});
    expect(created).toEqual({ selector: null, block: { applied: false, reason: "not_configured" }, hint: LLM_SELECTOR_HINT });
    expect(LLM_SELECTOR_HINT).toBe("set SELECTOR_LLM_BASE_URL and SELECTOR_LLM_MODEL");
  });

  it("llm with a bad configuration → null with a misconfigured block and what is wrong", () => {
    const created = createSelector("llm", {
      SELECTOR_LLM_BASE_URL: "http://x/v1",
      SELECTOR_LLM_MODEL: "m",
      SELECTOR_LLM_TIMEOUT_MS: "soon",
    });
    expect(created.selector).toBeNull();
    if (created.selector === null) {
      expect(created.block).toEqual({ applied: false, reason: "misconfigured" });
      expect(created.hint).toMatch(/SELECTOR_LLM_TIMEOUT_MS/);
    }
  });

  it("llm when configured", () => {
    const created = createSelector("llm", { SELECTOR_LLM_BASE_URL: "http://127.0.0.1:1/v1", SELECTOR_LLM_MODEL: "qwen2.5:7b" });
    expect(created.selector?.id).toBe("llm");
    expect(created.selector?.model).toBe("qwen2.5:7b");
  });
});

describe("availableSelectors", () => {
  it("off and gap always; llm disabled with the hint when not configured", () => {
    expect(availableSelectors({})).toEqual([
      { id: "off", label: "Off", available: true },
      { id: "gap", label: "Score gap", available: true, model: "score-gap" },
      { id: "llm", label: "LLM", available: false, hint: "set SELECTOR_LLM_BASE_URL and SELECTOR_LLM_MODEL" },
    ]);
  });

  it("llm available with its model when configured; never the URL or the key", () => {
    const options = availableSelectors({
      SELECTOR_LLM_BASE_URL: "https://llm.internal.example/v1",
      SELECTOR_LLM_MODEL: "gpt-4o-mini",
      SELECTOR_LLM_API_KEY: "sk-very-secret",
    });
    expect(options[2]).toEqual({ id: "llm", label: "LLM", available: true, model: "gpt-4o-mini" });
    expect(JSON.stringify(options)).not.toMatch(/secret|internal/);
  });

  it("llm disabled with the problem when misconfigured", () => {
    const options = availableSelectors({
      SELECTOR_LLM_BASE_URL: "http://x/v1",
      SELECTOR_LLM_MODEL: "m",
      SELECTOR_LLM_TIMEOUT_MS: "-1",
    });
    expect(options[2]).toMatchObject({ id: "llm", available: false, hint: expect.stringMatching(/SELECTOR_LLM_TIMEOUT_MS/) });
  });
});

describe("runSelector", () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("off → not applied, disabled, the page whole", async () => {
    const run = await runSelector("off", { query: "q", page: PAGE }, { env: {} });
    expect(run.block).toEqual({ applied: false, reason: "disabled" });
    expect(run.keptIds).toEqual(["a", "b", "c"]);
  });

  it("gap → the score-gap run", async () => {
    const run = await runSelector("gap", { query: "q", page: PAGE }, { env: {} });
    expect(serializeSelector(run.block)).toEqual({
      applied: true,
      model: "score-gap",
      kept: 2,
      dropped: 1,
      dropped_memory_ids: ["c"],
    });
    expect(run.keptIds).toEqual(["a", "b"]);
  });

  it("llm unconfigured → not_configured with the hint as detail, the page whole", async () => {
    const run = await runSelector("llm", { query: "q", page: PAGE }, { env: {} });
    expect(run.block).toEqual({ applied: false, reason: "not_configured" });
    expect(run.keptIds).toEqual(["a", "b", "c"]);
    expect(run.detail).toBe(LLM_SELECTOR_HINT);
  });

  it("llm configured by env → the real client against the endpoint", async () => {
    llm.setNext({ content: '{"keep": ["c"]}' });
    const env = { SELECTOR_LLM_BASE_URL: llm.baseUrl, SELECTOR_LLM_MODEL: "fake-model", SELECTOR_LLM_API_KEY: "k1" };
    const run = await runSelector("llm", { query: "q", page: PAGE }, { env });
    expect(run.block).toEqual({ applied: true, model: "fake-model", kept: 1, dropped: 2, dropped_memory_ids: ["a", "b"] });
    expect(llm.requests.at(-1)?.headers.authorization).toBe("Bearer k1");
  });

  it("every reason this library produces is on the one list, each with its kind", () => {
    expect(SELECTOR_REASONS).toEqual([
      "disabled",
      "not_configured",
      "misconfigured",
      "empty_page",
      "invalid_page",
      "no_cosines",
      "too_few_results",
      "aborted",
      "timeout",
      "unreachable",
      "http_error",
      "bad_response",
      "refused",
      "truncated",
      "unparseable",
      "unknown_id",
    ]);
    expect(SELECTOR_REASONS.filter((r) => selectorReasonKind(r) === "failed")).toEqual([
      "timeout",
      "unreachable",
      "http_error",
      "bad_response",
      "refused",
      "truncated",
      "unparseable",
      "unknown_id",
    ]);
    expect(SELECTOR_REASONS.filter((r) => selectorReasonKind(r) === "off")).toEqual(["disabled"]);
    // Written before the one list: a per-status HTTP code is still an HTTP failure; anything else is unknown.
    expect(selectorReasonKind("http_503")).toBe("failed");
    expect(selectorReasonKind("no_clear_gap")).toBe("unknown");
    expect(selectorReasonKind(null)).toBe("unknown");
    for (const r of SELECTOR_REASONS) expect(selectorReasonLabel(r)).not.toBe(r);
  });

  it("unconfigured or off: not applied, no model; a strategy that ran names its model", async () => {
    expect((await runSelector("off", { query: "q", page: PAGE }, { env: {} })).model).toBeUndefined();
    const unconfigured = await runSelector("llm", { query: "q", page: PAGE }, { env: {} });
    expect(unconfigured.block).toEqual({ applied: false, reason: "not_configured" });
    expect(unconfigured.model).toBeUndefined();
    expect((await runSelector("gap", { query: "q", page: PAGE }, { env: {} })).model).toBe("score-gap");
  });
});
