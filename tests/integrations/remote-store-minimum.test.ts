import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithOnly, type MinimumApp } from "./minimum-env";
import { callRoute } from "../support/call-route";
import { startFakeMemoryService, type FakeMemoryService } from "../support/fake-memory-service";

/**
 * The app started with only the README's minimum settings for one remote store (README
 * "Integrations"): REMOTE_STORE_URL, REMOTE_STORE_API_KEY and REMOTE_STORE_CONTEXT_ID, against the
 * loopback memory-service double (strict on the key, the context and the request body). The name
 * (`remote`), the label and the timeout take their defaults; a recall that picks no search mode and
 * does not ask for a rerank leaves both to the service.
 */
let service: FakeMemoryService;
let app: MinimumApp;

beforeAll(async () => {
  service = await startFakeMemoryService();
  app = await startAppWithOnly(
    { REMOTE_STORE_URL: service.url, REMOTE_STORE_API_KEY: service.apiKey, REMOTE_STORE_CONTEXT_ID: service.contextId },
    { emptyStore: true },
  );
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await service?.close();
});

describe("a remote store with only the minimum settings", () => {
  it("recalls under the default name, sending only what the user chose, and logs the recall", async () => {
    const recallRoute = await import("@/app/api/recall/route");
    const { status, json: view } = await callRoute(recallRoute.POST, {
      body: { store: "remote", query: "jwt refresh rotation", k: 3 },
    });
    expect(status).toBe(200);
    expect(view.results.length).toBeGreaterThan(0);

    const sent = service.requests.filter((r) => r.path.endsWith("/recall"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${service.apiKey}`);
    expect(sent[0]!.body).toEqual({ query: "jwt refresh rotation", k: 3, filters: { context_id: service.contextId } });

    const recallById = await import("@/app/api/recalls/[id]/route");
    const logged = await callRoute(recallById.GET, { params: { id: view.id } });
    expect(logged.status).toBe(200);
    expect(logged.json.store).toBe("remote");
    expect(JSON.stringify(logged.json)).not.toContain(service.apiKey);
  }, 60_000);
});
