import { expect, test } from "@playwright/test";

/**
 * The recall proxy (/proxy/{store}/…) on the production server: what a real `next start` does to
 * a route handler's answer (it drops Content-Encoding) is only seen here. The app under test
 * (playwright.config.ts) has the remote store "fake" on the loopback double of the memory
 * service, which this spec puts behind GZipMiddleware (`POST /__fake/gzip`). Playwright's request
 * client asks for gzip, deflate and br and undoes whatever Content-Encoding the answer names, as
 * an agent's httpx does.
 */
const FAKE_SERVICE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 2}`;
const FAKE_API_KEY = "kagura_fake-test-key-0123456789abcdefghijklmnopq";
const FAKE_CONTEXT_ID = "7d4b8c2e-1f3a-4e5b-9c6d-0a1b2c3d4e5f";
const RECALL = "/api/v1/memory/recall";

test.beforeEach(async ({ request }) => {
  expect((await request.post(`${FAKE_SERVICE}/__fake/reset`)).status()).toBe(200);
  expect((await request.post(`${FAKE_SERVICE}/__fake/gzip`, { data: { on: true } })).status()).toBe(200);
});
test.afterEach(async ({ request }) => {
  await request.post(`${FAKE_SERVICE}/__fake/reset`);
});

test("an agent asking for gzip reads the same JSON through the proxy as direct, and the recall is logged once", async ({
  request,
}) => {
  const query = `gzip through the proxy ${Date.now()}`;
  const call = {
    headers: { authorization: `Bearer ${FAKE_API_KEY}`, "content-type": "application/json", "accept-encoding": "gzip" },
    data: { query, k: 3, filters: { context_id: FAKE_CONTEXT_ID } },
  };
  const direct = await request.post(`${FAKE_SERVICE}${RECALL}`, call);
  expect(direct.headers()["content-encoding"]).toBe("gzip"); // the double did compress
  const proxied = await request.post(`/proxy/fake${RECALL}`, call);
  expect(proxied.status()).toBe(200);
  // Bytes and header agree: the client undid exactly the coding the answer named.
  expect(await proxied.json()).toEqual(await direct.json());

  await expect
    .poll(async () => {
      const page = (await (await request.get(`/api/recalls?q=${encodeURIComponent(query)}`)).json()) as {
        items: { source: string; status: string }[];
      };
      return page.items.map((item) => `${item.source} ${item.status}`);
    })
    .toEqual(["proxy ok"]);
});

test("TRACE and methods no route takes, on a proxy path, are a 405 in the envelope", async ({ request }) => {
  for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
    const answer = await request.fetch(`/proxy/fake${RECALL}`, { method });
    expect(answer.status(), `${method} /proxy/fake${RECALL}`).toBe(405);
    expect(await answer.json()).toMatchObject({ error: "method_not_allowed" });
  }
});
