/**
 * Contract tests for failures: each error status of the reference service, timeouts,
 * cancellation, malformed answers and unreachable services, through the real client over HTTP.
 * No message may contain the API key or the query.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RemoteMemoryService } from "@/lib/stores/server/remote/client";
import { RemoteStore } from "@/lib/stores/server/remote/remote-store";
import { StoreError, type StoreRecallRequest } from "@/lib/stores/types";
import { configFor, rejection, SECRET_QUERY } from "./helpers";
import { startFakeMemoryService, type FakeMemoryService } from "../../support/fake-memory-service";
import { FAKE_API_KEY, fullRecallResponse } from "../../support/fake-memory-service-fixtures";

const REQUEST: StoreRecallRequest = { query: SECRET_QUERY, k: 5, searchMode: "hybrid" };
const WRONG_KEY = "kagura_WRONG-secret-key-4242424242424242424242";

/** A StoreError whose message and details leak neither key nor query. */
function expectClean(error: unknown, ...secrets: string[]): StoreError {
  expect(error).toBeInstanceOf(StoreError);
  const e = error as StoreError;
  const serialized = JSON.stringify({ message: e.message, details: e.details, code: e.code });
  for (const secret of [FAKE_API_KEY, WRONG_KEY, SECRET_QUERY, "SECRET-QUERY-7431", ...secrets]) {
    expect(serialized).not.toContain(secret);
    expect(String(e.stack ?? "")).not.toContain(secret);
  }
  expect(e.message).not.toMatch(/\n/);
  return e;
}

describe("remote store failures", () => {
  let fake: FakeMemoryService;
  let store: RemoteStore;

  beforeAll(async () => {
    fake = await startFakeMemoryService();
    store = new RemoteStore(configFor(fake, { timeoutMs: 300 }));
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("401: a rejected key says to set a valid key in the variable, without the key", async () => {
    const wrong = new RemoteStore(configFor(fake, { apiKey: WRONG_KEY }));
    const error = expectClean(await rejection(wrong.recall(REQUEST)));
    expect(error.status).toBe(502);
    expect(error.code).toBe("remote_auth_failed");
    expect(error.message).toBe(
      'The remote store "prod" rejected its API key (invalid or expired): set a valid key in REMOTE_STORE_API_KEY.',
    );
    expect(error.details).toMatchObject({ store: "prod", remote_status: 401, remote_error: "HTTP-401" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${WRONG_KEY}`);
  });

  it("401 names the REMOTE_STORES entry when the store came from the JSON form", async () => {
    const { readRemoteStoreConfigs } = await import("@/lib/stores/server/remote/config");
    const [config] = readRemoteStoreConfigs({
      REMOTE_STORES: JSON.stringify([{ name: "prod", base_url: fake.url, api_key: WRONG_KEY, context_id: fake.contextId }]),
    });
    const error = expectClean(await rejection(new RemoteStore(config!).recall(REQUEST)));
    expect(error.message).toMatch(/set a valid key in REMOTE_STORES\[0\]\.api_key\.$/);
  });

  it("403: the key lacks access (some endpoints are session-only)", async () => {
    fake.setNext({ error: 403 });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_forbidden" });
    expect(error.message).toMatch(/refused this API key \(403\)/);
    expect(error.message).toMatch(/session/);
    expect(error.message).toContain(fake.contextId);
  });

  it("404: the context is unknown or not accessible — check the context id", async () => {
    const other = new RemoteStore(configFor(fake, { contextId: "00000000-0000-4000-8000-000000000000" }));
    const error = expectClean(await rejection(other.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_not_found" });
    expect(error.message).toBe(
      'The remote store "prod" found no context 00000000-0000-4000-8000-000000000000, or this API key has no access to it (the service does not say which): check REMOTE_STORE_CONTEXT_ID and that the key belongs to the context\'s workspace.',
    );
    expect(fake.requests[0]?.body).toMatchObject({ filters: { context_id: "00000000-0000-4000-8000-000000000000" } });
  });

  it("404 without the service's envelope points at the base URL", async () => {
    const wrongRoot = new RemoteStore(configFor(fake, { url: `${fake.url}/not-the-service` }));
    fake.setNext({ raw: "<html>Not Found</html>", status: 404, contentType: "text/html" });
    const error = expectClean(await rejection(wrongRoot.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_not_found" });
    expect(error.message).toBe(
      `The remote store "prod" (${fake.url}/not-the-service) answered 404 as if the memory API were not at this address: check that REMOTE_STORE_URL is the service's root address.`,
    );
    expect(fake.requests[0]?.path).toBe("/not-the-service/api/v1/memory/recall");

    // The service's own answer for an unknown route (its envelope, generic "Not Found") says the same.
    const error2 = expectClean(await rejection(wrongRoot.recall(REQUEST)));
    expect(error2.message).toMatch(/as if the memory API were not at this address/);
  });

  it("422: the service's validation messages are included, never the input", async () => {
    fake.setNext({
      error: 422,
      details: {
        errors: [
          { loc: ["body", "k"], msg: "Input should be less than or equal to 100", type: "less_than_equal" },
          { loc: ["body", "filters", "tags_match"], msg: "tags_match must be 'any' or 'all'", type: "value_error" },
        ],
      },
    });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 422, code: "remote_rejected" });
    expect(error.message).toBe(
      "The remote store \"prod\" rejected the request (422): body.k: Input should be less than or equal to 100; body.filters.tags_match: tags_match must be 'any' or 'all'.",
    );
    expect(error.details).toMatchObject({
      remote_status: 422,
      remote_error: "VAL-001",
      errors: [
        { loc: "body.k", msg: "Input should be less than or equal to 100", type: "less_than_equal" },
        { loc: "body.filters.tags_match", msg: "tags_match must be 'any' or 'all'", type: "value_error" },
      ],
    });
  });

  it("422 without details.errors carries the service's message (a recall ValueError)", async () => {
    fake.setNext({
      error: 422,
      code: "HTTP-422",
      message: "recall() requires current_workspace_id and current_context_id",
      details: {},
    });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error.message).toBe(
      'The remote store "prod" rejected the request (422): recall() requires current_workspace_id and current_context_id.',
    );
  });

  it("a key echoed by the service is redacted from every message", async () => {
    fake.setNext({ error: 500, message: `boom while checking ${FAKE_API_KEY}` });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error.message).toContain("[redacted]");
  });

  it("503: unavailable, with Retry-After", async () => {
    fake.setNext({ error: 503 });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 503, code: "remote_unavailable" });
    expect(error.message).toBe(
      'The remote store "prod" is temporarily unavailable (503). Retry after 5 s. The service said: "Database unavailable".',
    );
    expect(error.details).toMatchObject({ retry_after_s: 5, remote_status: 503 });
  });

  it("429: rate limited, as 503 with Retry-After", async () => {
    fake.setNext({ error: 429, headers: { "retry-after": "30" } });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 503, code: "remote_rate_limited", details: { retry_after_s: 30 } });
  });

  it("500 and other 5xx: 502 with the service's message", async () => {
    fake.setNext({ error: 500 });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_error" });
    expect(error.message).toBe('The remote store "prod" failed with HTTP 500. The service said: "Internal server error".');

    fake.setNext({ raw: "Bad gateway", status: 502, contentType: "text/plain" });
    const gateway = expectClean(await rejection(store.recall(REQUEST)));
    expect(gateway).toMatchObject({ status: 502, code: "remote_error" });
    expect(gateway.message).toBe('The remote store "prod" failed with HTTP 502.');
  });

  it("never retries a recall (it is not idempotent)", async () => {
    fake.setNext({ error: 503 });
    await rejection(store.recall(REQUEST));
    fake.setNext({ error: 500 });
    await rejection(store.recall(REQUEST));
    expect(fake.requests).toHaveLength(2);
  });

  it("a slow answer times out: 504 naming the timeout and the variable", async () => {
    fake.setNext({ json: fullRecallResponse(), delayMs: 3_000 });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 504, code: "remote_timeout", details: { timeout_ms: 300 } });
    expect(error.message).toBe(
      `The remote store "prod" (${fake.url}) did not answer within 300 ms; raise REMOTE_STORE_TIMEOUT_MS if the service is just slow.`,
    );
  });

  it("a service that never answers times out too", async () => {
    fake.setNext({ hang: true });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 504, code: "remote_timeout" });
  });

  it("a body that stalls after the headers times out", async () => {
    // Headers arrive, the body never completes.
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"results": [');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const stalled = new RemoteStore(configFor(fake, { url, timeoutMs: 300 }));
      const error = expectClean(await rejection(stalled.recall(REQUEST)));
      expect(error).toMatchObject({ status: 504, code: "remote_timeout" });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("cancellation by the caller's signal rejects with an AbortError, not a timeout", async () => {
    const slow = new RemoteStore(configFor(fake, { timeoutMs: 10_000 }));
    fake.setNext({ hang: true });
    const controller = new AbortController();
    const pending = slow.recall(REQUEST, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(pending);
    expect(error).not.toBeInstanceOf(StoreError);
    expect((error as Error).name).toBe("AbortError");
    expect(fake.requests).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(store.recall(REQUEST, controller.signal));
    expect((error as Error).name).toBe("AbortError");
    expect(fake.requests).toHaveLength(0);
  });

  it("malformed JSON: 502 'not a RecallResponse'", async () => {
    fake.setNext({ raw: '{"results": [ {"memory_id": ', status: 200 });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_bad_response" });
    expect(error.message).toBe(
      `The remote store "prod" (${fake.url}) answered with something that is not a RecallResponse (the body is not JSON).`,
    );
  });

  it("JSON that is not a RecallResponse: 502 with the schema problem", async () => {
    fake.setNext({ json: { items: [] } });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_bad_response" });
    expect(error.message).toMatch(/answered with something that is not a RecallResponse \(results: /);

    fake.setNext({ json: { results: [{ summary: "no id" }], confidence: { level: "high", result_count: 1 } } });
    const noId = expectClean(await rejection(store.recall(REQUEST)));
    expect(noId.message).toMatch(/not a RecallResponse \(results\[0\]\.memory_id: /);

    fake.setNext({ raw: "", status: 200 });
    const empty = expectClean(await rejection(store.recall(REQUEST)));
    expect(empty.message).toMatch(/not a RecallResponse \(an empty body\)/);
  });

  it("a dropped connection: 502 could not reach", async () => {
    fake.setNext({ drop: true });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_unreachable" });
    expect(error.message).toMatch(/^Could not reach the remote store "prod"/);
  });

  it("a redirect is not followed, so the key goes nowhere else", async () => {
    fake.setNext({ raw: "", status: 307, headers: { location: "https://elsewhere.example/api/v1/memory/recall" } });
    const error = expectClean(await rejection(store.recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_redirect" });
    expect(error.message).toMatch(/redirected the request to https:\/\/elsewhere\.example\/api\/v1\/memory\/recall \(HTTP 307\)/);
    expect(fake.requests).toHaveLength(1);
  });

  it("errors on list and stats are mapped the same way", async () => {
    const wrong = new RemoteStore(configFor(fake, { apiKey: WRONG_KEY }));
    await expect(wrong.listMemories()).rejects.toMatchObject({ status: 502, code: "remote_auth_failed" });
    await expect(wrong.stats()).rejects.toMatchObject({ status: 502, code: "remote_auth_failed" });
    fake.setNext({ raw: "nope", path: "/api/v1/memory/list" });
    const bad = expectClean(await rejection(store.listMemories()));
    expect(bad.message).toMatch(/not a memory list/);
    fake.setNext({ json: { total: "many" }, path: "/api/v1/memory/stats" });
    expect(expectClean(await rejection(store.stats())).message).toMatch(/not memory stats/);
  });

  it("an invalid recall is refused before it is sent", async () => {
    const client = new RemoteMemoryService(configFor(fake));
    await expect(client.recall({ query: "", k: 5 })).rejects.toMatchObject({ status: 422, code: "invalid_recall_request" });
    await expect(client.recall({ query: "x", k: 101 })).rejects.toMatchObject({ status: 422, code: "invalid_recall_request" });
    await expect(client.recall({ query: "x", filters: { context_id: "another" } })).rejects.toMatchObject({ status: 422 });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("an unreachable service", () => {
  it("connection refused: 502 could not reach, naming the address and the variable", async () => {
    const fake = await startFakeMemoryService();
    const config = configFor(fake);
    await fake.close(); // nothing listens on that port any more
    const error = expectClean(await rejection(new RemoteStore(config).recall(REQUEST)));
    expect(error).toMatchObject({ status: 502, code: "remote_unreachable" });
    expect(error.message).toBe(
      `Could not reach the remote store "prod" (${fake.url}) (connection refused): check REMOTE_STORE_URL and that the service is running.`,
    );
  });

  it("health reports it without throwing", async () => {
    const fake = await startFakeMemoryService();
    const config = configFor(fake);
    await fake.close();
    const health = await new RemoteStore(config).health();
    expect(health).toMatchObject({ ok: false, status: 502, code: "remote_unreachable" });
  });
});
