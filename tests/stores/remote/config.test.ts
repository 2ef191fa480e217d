import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_REMOTE_TIMEOUT_MS,
  readRemoteStoreConfigs,
  RemoteStoreConfig,
  RemoteStoreConfigError,
} from "@/lib/stores/server/remote/config";

const KEY = "kagura_SECRET-config-key-9f8e7d6c5b4a39281706";
const CONTEXT = "7d4b8c2e-1f3a-4e5b-9c6d-0a1b2c3d4e5f";

function configError(env: Record<string, string | undefined>): RemoteStoreConfigError {
  try {
    readRemoteStoreConfigs(env);
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteStoreConfigError);
    const e = error as RemoteStoreConfigError;
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toContain("SECRET");
    expect(e.message).not.toMatch(/\n/);
    return e;
  }
  throw new Error("expected a RemoteStoreConfigError");
}

const entry = (overrides: Record<string, unknown> = {}) => ({
  name: "prod",
  base_url: "https://memory.example.com",
  api_key: KEY,
  context_id: CONTEXT,
  ...overrides,
});

describe("readRemoteStoreConfigs", () => {
  it("is empty when nothing is configured", () => {
    expect(readRemoteStoreConfigs({})).toEqual([]);
    expect(readRemoteStoreConfigs({ REMOTE_STORES: "  ", REMOTE_STORE_URL: "" })).toEqual([]);
  });

  it("reads one store from REMOTE_STORE_* with defaults", () => {
    const [store, ...rest] = readRemoteStoreConfigs({
      REMOTE_STORE_URL: "https://memory.example.com/",
      REMOTE_STORE_API_KEY: ` ${KEY} `,
      REMOTE_STORE_CONTEXT_ID: CONTEXT,
    });
    expect(rest).toEqual([]);
    expect(store!.toJSON()).toEqual({
      kind: "remote",
      name: "remote",
      label: "remote",
      base_url: "https://memory.example.com",
      context_id: CONTEXT,
      timeout_ms: DEFAULT_REMOTE_TIMEOUT_MS,
    });
    expect(store!.authorizationHeader()).toBe(`Bearer ${KEY}`);
    expect(store!.sources.api_key).toBe("REMOTE_STORE_API_KEY");
  });

  it("reads name, label and timeout of the single store", () => {
    const [store] = readRemoteStoreConfigs({
      REMOTE_STORE_URL: "http://127.0.0.1:8080/kagura",
      REMOTE_STORE_API_KEY: KEY,
      REMOTE_STORE_CONTEXT_ID: CONTEXT,
      REMOTE_STORE_NAME: "staging-2",
      REMOTE_STORE_LABEL: "Staging two",
      REMOTE_STORE_TIMEOUT_MS: "2500",
    });
    expect(store).toMatchObject({
      name: "staging-2",
      label: "Staging two",
      baseUrl: "http://127.0.0.1:8080/kagura",
      timeoutMs: 2500,
    });
  });

  it("reads REMOTE_STORES, then the single store, keeping order", () => {
    const stores = readRemoteStoreConfigs({
      REMOTE_STORES: JSON.stringify([entry({ label: "Production", timeout_ms: 20_000 }), entry({ name: "staging" })]),
      REMOTE_STORE_URL: "https://other.example.com",
      REMOTE_STORE_API_KEY: KEY,
      REMOTE_STORE_CONTEXT_ID: CONTEXT,
    });
    expect(stores.map((s) => [s.name, s.label, s.timeoutMs])).toEqual([
      ["prod", "Production", 20_000],
      ["staging", "staging", DEFAULT_REMOTE_TIMEOUT_MS],
      ["remote", "remote", DEFAULT_REMOTE_TIMEOUT_MS],
    ]);
    expect(stores[1]!.sources).toEqual({
      base_url: "REMOTE_STORES[1].base_url",
      api_key: "REMOTE_STORES[1].api_key",
      context_id: "REMOTE_STORES[1].context_id",
      timeout_ms: "REMOTE_STORES[1].timeout_ms",
    });
  });

  it("never serializes the key: JSON, String, inspect, spread, keys", () => {
    const stores = readRemoteStoreConfigs({ REMOTE_STORES: JSON.stringify([entry()]) });
    const store = stores[0]!;
    expect(JSON.stringify(stores)).not.toContain(KEY);
    expect(JSON.stringify({ store })).not.toContain(KEY);
    expect(String(store)).not.toContain(KEY);
    expect(`${store}`).not.toContain(KEY);
    expect(inspect(store, { showHidden: true, depth: 10 })).not.toContain(KEY);
    expect(inspect(stores)).not.toContain(KEY);
    expect(JSON.stringify({ ...store })).not.toContain(KEY);
    expect(Object.values(store).join(" ")).not.toContain(KEY);
    expect(store.redact(`a ${KEY} b`)).toBe("a [redacted] b");
  });

  it("bad JSON in REMOTE_STORES: one line, without the key", () => {
    const e = configError({ REMOTE_STORES: `[{"name":"prod","api_key":"${KEY}",}]` });
    expect(e.variable).toBe("REMOTE_STORES");
    expect(e.message).toMatch(/^REMOTE_STORES is not valid JSON( \(at character \d+\))?; expected an array like \[/);
  });

  it("REMOTE_STORES must be an array of objects", () => {
    expect(configError({ REMOTE_STORES: JSON.stringify(entry()) }).message).toBe(
      "REMOTE_STORES is invalid: must be a JSON array of store objects.",
    );
    expect(configError({ REMOTE_STORES: JSON.stringify(["prod"]) }).message).toBe(
      "REMOTE_STORES is invalid: [0] must be an object.",
    );
  });

  it("names what is missing or wrong in an entry", () => {
    const { base_url: _u, ...noUrl } = entry();
    expect(configError({ REMOTE_STORES: JSON.stringify([noUrl]) }).message).toBe(
      "REMOTE_STORES is invalid: [0].base_url is required.",
    );
    const { api_key: _k, ...noKey } = entry();
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ name: "a" }), noKey]) }).message).toBe(
      "REMOTE_STORES is invalid: [1].api_key is required.",
    );
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ apikey: "x" })]) }).message).toBe(
      "REMOTE_STORES is invalid: [0] has unknown key apikey.",
    );
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ timeout_ms: 5 })]) }).message).toBe(
      "REMOTE_STORES is invalid: [0].timeout_ms must be between 100 and 600000 ms.",
    );
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ timeout_ms: "5000" })]) }).message).toBe(
      "REMOTE_STORES is invalid: [0].timeout_ms must be a number of milliseconds.",
    );
  });

  it("checks names: [a-z0-9-]+, not 'embedded', unique", () => {
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ name: "Prod" })]) }).message).toBe(
      "REMOTE_STORES is invalid: [0].name may hold only lowercase letters, digits and hyphens ([a-z0-9-]+).",
    );
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ name: "embedded" })]) }).message).toMatch(
      /\[0\]\.name must not be "embedded"/,
    );
    const dup = configError({ REMOTE_STORES: JSON.stringify([entry(), entry()]) });
    expect(dup.message).toBe('Two remote stores are named "prod" (REMOTE_STORES and REMOTE_STORES); store names must be unique.');
    const dupSingle = configError({
      REMOTE_STORES: JSON.stringify([entry({ name: "remote" })]),
      REMOTE_STORE_URL: "https://memory.example.com",
      REMOTE_STORE_API_KEY: KEY,
      REMOTE_STORE_CONTEXT_ID: CONTEXT,
    });
    expect(dupSingle.variable).toBe("REMOTE_STORE_NAME");
    expect(dupSingle.message).toMatch(/Two remote stores are named "remote" \(REMOTE_STORES and REMOTE_STORE_NAME\)/);
    expect(
      configError({
        REMOTE_STORE_URL: "https://m.example.com",
        REMOTE_STORE_API_KEY: KEY,
        REMOTE_STORE_CONTEXT_ID: CONTEXT,
        REMOTE_STORE_NAME: "embedded",
      }).variable,
    ).toBe("REMOTE_STORE_NAME");
  });

  it("a key pasted into another field is not echoed", () => {
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ name: KEY })]) }).message).toMatch(/\[0\]\.name may hold only/);
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ base_url: KEY })]) }).message).toMatch(
      /\[0\]\.base_url is not a valid URL/,
    );
    expect(configError({ REMOTE_STORES: JSON.stringify([entry({ context_id: `${KEY} x` })]) }).message).toMatch(
      /\[0\]\.context_id is not a context id/,
    );
    expect(configError({ REMOTE_STORE_URL: KEY, REMOTE_STORE_API_KEY: KEY, REMOTE_STORE_CONTEXT_ID: CONTEXT }).message).toMatch(
      /^REMOTE_STORE_URL is not a valid URL/,
    );
  });

  it("the single store needs a URL, a key and a context id", () => {
    const noUrl = configError({ REMOTE_STORE_API_KEY: KEY, REMOTE_STORE_CONTEXT_ID: CONTEXT });
    expect(noUrl.variable).toBe("REMOTE_STORE_URL");
    expect(noUrl.message).toBe(
      "REMOTE_STORE_URL is not set, but REMOTE_STORE_API_KEY, REMOTE_STORE_CONTEXT_ID are: a remote store needs REMOTE_STORE_URL, REMOTE_STORE_API_KEY and REMOTE_STORE_CONTEXT_ID (or unset the other REMOTE_STORE_* variables).",
    );
    expect(configError({ REMOTE_STORE_URL: "https://m.example.com", REMOTE_STORE_CONTEXT_ID: CONTEXT }).variable).toBe(
      "REMOTE_STORE_API_KEY",
    );
    expect(configError({ REMOTE_STORE_URL: "https://m.example.com", REMOTE_STORE_API_KEY: KEY }).variable).toBe(
      "REMOTE_STORE_CONTEXT_ID",
    );
  });

  it("checks the URL: http(s), no credentials, no query, the service root", () => {
    const single = (url: string) =>
      configError({ REMOTE_STORE_URL: url, REMOTE_STORE_API_KEY: KEY, REMOTE_STORE_CONTEXT_ID: CONTEXT }).message;
    expect(single("ftp://memory.example.com")).toBe("REMOTE_STORE_URL must be an http:// or https:// URL.");
    expect(single(`https://user:${KEY}@memory.example.com`)).toBe(
      "REMOTE_STORE_URL must not carry credentials; put the key in the API key setting instead.",
    );
    expect(single("https://memory.example.com/?key=1")).toBe("REMOTE_STORE_URL must not have a query string or fragment.");
    expect(single("https://memory.example.com/api/v1/")).toBe(
      "REMOTE_STORE_URL must be the service root, without /api/v1 (the client adds /api/v1/memory/…).",
    );
    expect(single("https://memory.example.com/api/v1/memory")).toMatch(/without \/api\/v1/);
  });

  it("checks the key and the timeout of the single store", () => {
    const base = { REMOTE_STORE_URL: "https://m.example.com", REMOTE_STORE_CONTEXT_ID: CONTEXT };
    expect(configError({ ...base, REMOTE_STORE_API_KEY: `${KEY} extra` }).message).toBe(
      "REMOTE_STORE_API_KEY contains whitespace or control characters; paste the key alone.",
    );
    const timeout = (value: string) => configError({ ...base, REMOTE_STORE_API_KEY: KEY, REMOTE_STORE_TIMEOUT_MS: value });
    expect(timeout("10s").message).toBe("REMOTE_STORE_TIMEOUT_MS must be a whole number of milliseconds.");
    expect(timeout("50").message).toBe("REMOTE_STORE_TIMEOUT_MS must be between 100 and 600000 ms.");
    expect(timeout("50").variable).toBe("REMOTE_STORE_TIMEOUT_MS");
  });

  it("a config built directly keeps the key private too", () => {
    const config = new RemoteStoreConfig({
      name: "x",
      label: "X",
      baseUrl: "https://m.example.com//",
      contextId: CONTEXT,
      timeoutMs: 1000,
      apiKey: KEY,
    });
    expect(config.baseUrl).toBe("https://m.example.com");
    expect(JSON.stringify(config)).not.toContain(KEY);
  });
});
