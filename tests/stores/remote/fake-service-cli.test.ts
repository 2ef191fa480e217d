/**
 * The fake memory service must be startable from a script (Playwright's webServer):
 * `node --import tsx tests/support/fake-memory-service.ts --port N` runs until SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRemoteStoreConfigs } from "@/lib/stores/server/remote/config";
import { RemoteStore } from "@/lib/stores/server/remote/remote-store";
import { FAKE_API_KEY, FAKE_CONTEXT_ID } from "../../support/fake-memory-service-fixtures";

const ROOT = path.resolve(import.meta.dirname, "../../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("fake memory service from the command line", () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGTERM");
  });

  it("starts on the given port, speaks the API and stops on SIGTERM", async () => {
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "tests/support/fake-memory-service.ts", "--port", String(port)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child!.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    expect(url).toBe(`http://127.0.0.1:${port}`);

    const env = { REMOTE_STORE_URL: url, REMOTE_STORE_API_KEY: FAKE_API_KEY, REMOTE_STORE_CONTEXT_ID: FAKE_CONTEXT_ID };
    const store = new RemoteStore(readRemoteStoreConfigs(env)[0]!);
    const outcome = await store.recall({ query: "jwt", k: 5, searchMode: "hybrid" });
    expect(outcome.results).toHaveLength(3);
    expect(outcome.confidence.level).toBe("high");

    const wrong = new RemoteStore(readRemoteStoreConfigs({ ...env, REMOTE_STORE_API_KEY: "kagura_wrong" })[0]!);
    await expect(wrong.recall({ query: "jwt", k: 5, searchMode: "hybrid" })).rejects.toMatchObject({
      code: "remote_auth_failed",
    });

    // The control routes script the next answer (for Playwright).
    const queued = await fetch(`${url}/__fake/next`, { method: "POST", body: JSON.stringify({ error: 503 }) });
    expect(queued.status).toBe(200);
    await expect(store.recall({ query: "jwt", k: 5, searchMode: "hybrid" })).rejects.toMatchObject({ status: 503 });
    const recorded = (await (await fetch(`${url}/__fake/requests`)).json()) as { requests: unknown[] };
    expect(recorded.requests).toHaveLength(3);

    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
