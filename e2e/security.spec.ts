import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * Safe to expose (lib/security/README.md "The request guard"): a page on another origin cannot write to the
 * dashboard, the console cannot be framed, sign-in guards pages and the API when AUTH_PASSWORD
 * is set, and bound beyond loopback without it the app does not start. Ports as in
 * playwright.config.ts: the app (E2E_PORT), the app with sign-in on (+4), another origin (+5).
 */
const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
const APP = `http://127.0.0.1:${E2E_PORT}`;
const AUTH_APP = `http://127.0.0.1:${E2E_PORT + 4}`;
const OTHER = `http://127.0.0.1:${E2E_PORT + 5}`;
const AUTH_PASSWORD = "e2e team password, long enough"; // playwright.config.ts E2E_AUTH_PASSWORD
const NO_RESULTS = { results: [], confidence: { level: "none", result_count: 0 } };

function stamp(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

async function memoryTotal(request: APIRequestContext, base = APP): Promise<number> {
  const response = await request.get(`${base}/api/memories?limit=1`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { total: number }).total;
}

/** Statuses the app answered to the attacker page's writes (even opaque no-cors ones are seen here). */
function watchWrites(page: Page): number[] {
  const statuses: number[] = [];
  page.on("response", (response) => {
    const method = response.request().method();
    if (response.url().startsWith(APP) && (method === "POST" || method === "DELETE")) statuses.push(response.status());
  });
  return statuses;
}

test.describe("another origin", () => {
  test("cannot create a memory, delete one, log a recall or run retention, with a form or with fetch", async ({
    page,
    request,
  }) => {
    const run = stamp();
    // What an attack would hit: a memory to delete, and a logged recall old enough for retention.
    const victim = `victim-${run}`;
    expect(
      (await request.post(`${APP}/api/memories`, { data: { memories: [{ id: victim, summary: `Keep me ${run}` }] } })).status(),
    ).toBe(201);
    const old = await request.post(`${APP}/api/recalls`, {
      data: {
        recalls: [
          {
            external_id: `old-${run}`,
            store: "e2e-security",
            created_at: "1971-06-01T00:00:00Z",
            request: { query: `old ${run}`, k: 1 },
            response: NO_RESULTS,
          },
        ],
      },
    });
    expect(old.status()).toBe(201);
    const oldId = ((await old.json()) as { results: { id: string }[] }).results[0]!.id;
    const memoriesBefore = await memoryTotal(request);
    const recallsBefore = (
      (await (await request.get(`${APP}/api/recalls?store=e2e-security&limit=100`)).json()) as { items: unknown[] }
    ).items.length;

    await page.goto(`${OTHER}/`);
    await expect(page.getByRole("heading", { name: "Another site" })).toBeVisible();
    const statuses = watchWrites(page);

    // 1. fetch: no-cors (the body goes out as text/plain), cors with JSON (needs a preflight), DELETE.
    const outcomes = await page.evaluate(
      async ({ app, victim, run }) => {
        const attempt = async (url: string, init: RequestInit) => {
          try {
            const response = await fetch(url, init);
            return response.type === "opaque" ? "opaque" : String(response.status);
          } catch {
            return "blocked";
          }
        };
        const planted = JSON.stringify({ memories: [{ summary: `planted by fetch ${run}` }] });
        return [
          await attempt(`${app}/api/memories`, { method: "POST", mode: "no-cors", body: planted }),
          await attempt(`${app}/api/memories`, {
            method: "POST",
            body: planted,
            headers: { "content-type": "application/json" },
          }),
          await attempt(`${app}/api/recalls/retention`, {
            method: "POST",
            mode: "no-cors",
            body: JSON.stringify({ keep_days: 20000 }),
          }),
          await attempt(`${app}/api/recall`, {
            method: "POST",
            mode: "no-cors",
            body: JSON.stringify({ query: `planted recall ${run}` }),
          }),
          await attempt(`${app}/api/memories/${victim}`, { method: "DELETE" }),
        ];
      },
      { app: APP, victim, run },
    );
    // The no-cors ones reach the server and are answered 403; the others never leave the browser
    // (their preflight gets no CORS grant).
    expect(outcomes).toEqual(["opaque", "blocked", "opaque", "opaque", "blocked"]);

    // 2. A plain HTML form with enctype="text/plain": it sends name=value, so a name that opens a
    // JSON string and a value that closes it make a body that is valid JSON.
    const submitForm = async (action: string, name: string, value: string) => {
      await page.goto(`${OTHER}/`);
      const navigation = page.waitForResponse((r) => r.url() === action);
      await page.evaluate(
        ({ action, name, value }) => {
          const form = document.createElement("form");
          form.method = "POST";
          form.action = action;
          form.enctype = "text/plain";
          const input = document.createElement("input");
          input.type = "hidden";
          input.name = name;
          input.value = value;
          form.appendChild(input);
          document.body.appendChild(form);
          form.submit();
        },
        { action, name, value },
      );
      const response = await navigation;
      expect(response.status()).toBe(403);
      expect(await response.json()).toMatchObject({ error: "cross_site_request", details: { evidence: expect.any(String) } });
    };
    await submitForm(`${APP}/api/memories`, `{"memories":[{"summary":"planted by form ${run}","pad":"`, `"}]}`);
    await submitForm(`${APP}/api/recalls/retention`, `{"keep_days":20000,"pad":"`, `"}`);

    expect(statuses.length).toBeGreaterThanOrEqual(5);
    expect(statuses.every((s) => s === 403)).toBe(true);

    // Nothing moved: the same memories, the victim still there, the old recall still logged.
    expect(await memoryTotal(request)).toBe(memoriesBefore);
    expect((await request.get(`${APP}/api/memories/${victim}`)).status()).toBe(200);
    expect((await request.get(`${APP}/api/recalls/${oldId}`)).status()).toBe(200);
    const recallsAfter = (
      (await (await request.get(`${APP}/api/recalls?store=e2e-security&limit=100`)).json()) as { items: unknown[] }
    ).items.length;
    expect(recallsAfter).toBe(recallsBefore);
    const planted = await request.get(`${APP}/api/recalls?q=${encodeURIComponent(`planted recall ${run}`)}`);
    expect(((await planted.json()) as { items: unknown[] }).items).toHaveLength(0);

    // While the dashboard's own page still writes (same origin), and a script without an Origin too.
    await page.goto(`${APP}/memories`);
    const own = await page.evaluate(async (run) => {
      const response = await fetch("/api/memories", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ memories: [{ summary: `same-origin write ${run}` }] }),
      });
      return response.status;
    }, run);
    expect(own).toBe(201);
    expect(await memoryTotal(request)).toBe(memoriesBefore + 1);
  });

  test("cannot frame the console; every answer carries the security headers", async ({ page, request }) => {
    for (const url of [`${APP}/`, `${APP}/api/health`, `${APP}/no/such/page`]) {
      const response = await request.get(url);
      const headers = response.headers();
      expect(headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"], url).toBe("DENY");
      expect(headers["x-content-type-options"], url).toBe("nosniff");
      expect(headers["referrer-policy"], url).toBeTruthy();
    }

    await page.goto(`${OTHER}/`);
    const framed = page.waitForResponse((r) => r.url() === `${APP}/`);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      frame.title = "framed console";
      document.body.appendChild(frame);
    }, `${APP}/`);
    // The console answered, and the browser refused to show it in the frame.
    expect((await framed).status()).toBe(200);
    const frame = page.frameLocator('iframe[title="framed console"]');
    await page.waitForTimeout(500);
    await expect(frame.getByRole("heading", { name: "Recall console" })).toHaveCount(0);
    const child = page.frames().find((f) => f !== page.mainFrame());
    expect(child?.url()).not.toBe(`${APP}/`);
  });

  test("a Host name the dashboard does not know (DNS rebinding) gets nothing", async () => {
    // What a browser sends after DNS rebinding: the attacker's name, this machine's address.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        { host: "127.0.0.1", port: E2E_PORT, path: "/api/memories", headers: { host: `rebind-${stamp()}.example:${E2E_PORT}` } },
        (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toBe("host_not_allowed");
  });
});

test.describe("with sign-in on (AUTH_PASSWORD)", () => {
  test("an anonymous visit lands on sign-in; a wrong password is refused; the right one gets in and out", async ({ page }) => {
    await page.goto(`${AUTH_APP}/recalls`);
    await expect(page).toHaveURL(`${AUTH_APP}/signin?next=%2Frecalls`);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

    const password = page.getByLabel("Password");
    await password.fill("not the password at all");
    await password.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "password" })).toHaveText("That password is not right.");
    await expect(page).toHaveURL(/\/signin/);
    await expect(password).toBeFocused();

    await password.fill(AUTH_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${AUTH_APP}/recalls`);
    await expect(page.getByRole("heading", { level: 1, name: "Recall history" })).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${AUTH_APP}/signin`);
    await page.goto(`${AUTH_APP}/`);
    await expect(page).toHaveURL(`${AUTH_APP}/signin`);
  });

  test("the API wants a key: none gets 401; an ingest key may ingest but not delete or read", async ({ page, request }) => {
    const run = stamp();
    const anonymous = await request.get(`${AUTH_APP}/api/recalls`);
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: "unauthorized", details: {} });

    // Sign in and create an ingest key on the Settings page.
    await page.goto(`${AUTH_APP}/settings`);
    await page.getByLabel("Password").fill(AUTH_PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(`${AUTH_APP}/settings`);
    await expect(page.getByText("Sign-in is on")).toBeVisible();
    await page.getByLabel("Name").fill(`agent ${run}`);
    await page.getByLabel("Scope").selectOption("ingest");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent())!.trim();
    expect(key).toMatch(/^ri_/);
    await expect(page.getByRole("row").filter({ hasText: `agent ${run}` })).toContainText("ingest");

    // A memory to try to delete, made by the signed-in browser.
    const victim = `auth-victim-${run}`;
    expect(
      (
        await page.request.post(`${AUTH_APP}/api/memories`, { data: { memories: [{ id: victim, summary: `Keep me ${run}` }] } })
      ).status(),
    ).toBe(201);

    const auth = { authorization: `Bearer ${key}` };
    const ingested = await request.post(`${AUTH_APP}/api/recalls`, {
      headers: auth,
      data: {
        recalls: [
          { external_id: `auth-${run}`, store: "agent", request: { query: `ingested ${run}`, k: 1 }, response: NO_RESULTS },
        ],
      },
    });
    expect(ingested.status()).toBe(201);
    const deleted = await request.delete(`${AUTH_APP}/api/memories/${victim}`, { headers: auth });
    expect(deleted.status()).toBe(403);
    expect((await deleted.json()).error).toBe("forbidden_scope");
    expect((await request.get(`${AUTH_APP}/api/recalls`, { headers: auth })).status()).toBe(403);
    expect((await page.request.get(`${AUTH_APP}/api/memories/${victim}`)).status()).toBe(200);
    const logged = await page.request.get(`${AUTH_APP}/api/recalls?q=${encodeURIComponent(`ingested ${run}`)}`);
    expect(((await logged.json()) as { items: unknown[] }).items).toHaveLength(1);

    // Revoked on the Settings page, the key stops working at once.
    const row = page.getByRole("row").filter({ hasText: `agent ${run}` });
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await row.getByRole("button", { name: /^Yes, revoke/ }).click();
    await expect(row).toContainText("revoked");
    const afterRevoke = await request.post(`${AUTH_APP}/api/recalls`, {
      headers: auth,
      data: {
        recalls: [
          { external_id: `auth-${run}-2`, store: "agent", request: { query: `again ${run}`, k: 1 }, response: NO_RESULTS },
        ],
      },
    });
    expect(afterRevoke.status()).toBe(401);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test("bound to 0.0.0.0 without AUTH_PASSWORD the app refuses to start, in one line", async () => {
  test.setTimeout(120_000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-e2e-exposed-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DATA_DIR: path.join(scratch, "pglite"), DEMO_CORPUS: "off" };
  delete env.AUTH_PASSWORD;
  delete env.AUTH_DISABLED;
  delete env.DATABASE_URL;
  try {
    const port = await freePort();
    const child = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(port), "-H", "0.0.0.0"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGTERM");
        resolve(null);
      }, 100_000);
      child.once("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(1);
    const ours = `${stdout}\n${stderr}`.split("\n").filter((line) => line.includes("Recall Inspector"));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/^Recall Inspector cannot start: it listens on 0\.0\.0\.0.*Set AUTH_PASSWORD/);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

/** A raw HTTP call (TRACE and oversized headers are not something Playwright's client sends). */
function rawCall(
  port: number,
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: pathname, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>, what: string) {
  expect(headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBeTruthy();
}

test.describe("answers Next or Node make themselves", () => {
  test("TRACE is a 405 in the envelope, oversized headers a 431, and every answer carries the security headers", async () => {
    for (const pathname of ["/", "/api/health", "/api/keys", "/no/such/page"]) {
      const trace = await rawCall(E2E_PORT, "TRACE", pathname);
      expect(trace.status, `TRACE ${pathname}`).toBe(405);
      expect(JSON.parse(trace.body)).toMatchObject({ error: "method_not_allowed", details: { method: "TRACE" } });
      expectSecurityHeaders(trace.headers, `TRACE ${pathname}`);
    }
    const tooLarge = await rawCall(E2E_PORT, "GET", "/api/health", { "x-long": "a".repeat(20_000) });
    expect(tooLarge.status).toBe(431);
    expect(JSON.parse(tooLarge.body).error).toBe("headers_too_large");
    expectSecurityHeaders(tooLarge.headers, "431");

    const answers: Array<[string, string, number]> = [
      ["OPTIONS", "/api/health", 204],
      ["PUT", "/api/keys", 405],
      ["GET", "/api/auth/signin", 405],
      ["DELETE", "/api/keys", 405],
      ["GET", "/no/such/page", 404],
    ];
    for (const [method, pathname, status] of answers) {
      const answer = await rawCall(
        E2E_PORT,
        method,
        pathname,
        method === "GET" || method === "OPTIONS" ? {} : { "content-type": "application/json" },
      );
      expect(answer.status, `${method} ${pathname}`).toBe(status);
      expectSecurityHeaders(answer.headers, `${method} ${pathname}`);
      if (status === 405) expect(JSON.parse(answer.body).error).toBe("method_not_allowed");
    }
  });

  test("the memory look-up takes its 500 ids in a POST body (a URL that long is Node's 431)", async ({ request }) => {
    const ids = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(4, "0")}-${"x".repeat(195)}`);
    const posted = await request.post(`${APP}/api/memories/lookup`, { data: { ids } });
    expect(posted.status()).toBe(200);
    expect(((await posted.json()) as { missing: string[] }).missing).toHaveLength(500);
    const viaUrl = await rawCall(E2E_PORT, "GET", `/api/memories/lookup?ids=${encodeURIComponent(ids.join(","))}`);
    expect(viaUrl.status).toBe(431);
    expect(JSON.parse(viaUrl.body).error).toBe("headers_too_large");
  });
});

/** A server of its own (sign-in on, a fresh database), so the guessing below locks out no other test. */
async function startOwnServer(scratch: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGLITE_DATA_DIR: path.join(scratch, "pglite"),
    DEMO_CORPUS: "off",
    AUTH_PASSWORD,
  };
  delete env.DATABASE_URL;
  delete env.AUTH_DISABLED;
  delete env.TRUSTED_PROXY_HOPS;
  const child = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env,
    stdio: "ignore",
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 240; i++) {
    const health = await rawCall(port, "GET", "/api/health").catch(() => null);
    if (health?.status === 200) return { port, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error("the server with sign-in on did not start");
}

test("sign-in resists guessing and sign-out ends the session, on a server of its own", async ({ page }) => {
  test.setTimeout(180_000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-e2e-guessing-"));
  const server = await startOwnServer(scratch);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    // A signed-in browser; its cookie kept aside, as whoever copied it would.
    await page.goto(`${base}/settings`);
    await page.getByLabel("Password").fill(AUTH_PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(`${base}/settings`);
    const cookie = (await page.context().cookies(base)).find((c) => c.name === "recall_inspector_session")!;
    expect(cookie).toBeTruthy();
    const replay = { cookie: `${cookie.name}=${cookie.value}` };
    expect((await rawCall(server.port, "GET", "/api/recalls", replay)).status).toBe(200);

    // Signed out in the browser, the copied cookie no longer opens the API or a page.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(`${base}/signin`);
    expect((await rawCall(server.port, "GET", "/api/recalls", replay)).status).toBe(401);
    const pageAnswer = await rawCall(server.port, "GET", "/recalls", replay);
    expect(pageAnswer.status).toBe(303);
    expect(pageAnswer.headers.location).toContain("/signin");

    // Signed in again, and then "Sign out everywhere" on Settings: that cookie ends too.
    await page.goto(`${base}/settings`);
    await page.getByLabel("Password").fill(AUTH_PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(`${base}/settings`);
    const again = (await page.context().cookies(base)).find((c) => c.name === "recall_inspector_session")!;
    const replayAgain = { cookie: `${again.name}=${again.value}` };
    expect((await rawCall(server.port, "GET", "/api/recalls", replayAgain)).status).toBe(200);
    await expect(page.getByTestId("live-sessions")).toHaveText("1");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("button", { name: "Yes, sign out every browser" }).click();
    await expect(page).toHaveURL(`${base}/signin`);
    expect((await rawCall(server.port, "GET", "/api/recalls", replayAgain)).status).toBe(401);

    // 60 wrong passwords at once: a 429 comes before the 30th, with Retry-After, in the envelope.
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${base}/api/auth/signin`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ password: `guess ${i}` }),
        }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get("retry-after"), body: await r.json() })),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThan(30);
    const refused = guesses.find((g) => g.status === 429)!;
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({
      error: "too_many_attempts",
      details: { retry_after_seconds: Number(refused.retryAfter) },
    });
  } finally {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
