/**
 * The fake LLM as Playwright will run it: `node --import tsx tests/support/fake-llm.ts --port N`,
 * with its default behaviour, until SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlmSelector } from "@/lib/selectors/llm";
import type { SelectorPageItem } from "@/lib/selectors/types";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAGE: SelectorPageItem[] = ["p1", "p2", "p3", "p4"].map((id) => ({ memory_id: id, summary: `about ${id}`, score: 0.5 }));

let child: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "tests/support/fake-llm.ts", "--port", "0", "--key", "script-key"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`fake-llm did not start: ${out} ${err}`)), 20_000);
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /fake-llm listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`fake-llm exited with ${code}: ${err}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

describe("fake-llm.ts as a script", () => {
  const selector = (timeoutMs = 5_000, apiKey = "script-key") => createLlmSelector({ baseUrl, model: "fake", apiKey, timeoutMs });

  it("answers health and model-list probes", async () => {
    expect((await fetch(baseUrl.replace(/\/v1$/, "/health"))).status).toBe(200);
    expect(await (await fetch(`${baseUrl}/models`)).json()).toMatchObject({ object: "list" });
  });

  it("by default keeps the first two ids of the page it is given", async () => {
    const run = await selector().select({ query: "deploy notes", page: PAGE });
    expect(run.block).toEqual({ applied: true, model: "fake", kept: 2, dropped: 2, dropped_memory_ids: ["p3", "p4"] });
    expect(run.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("checks the key when started with --key", async () => {
    const run = await selector(5_000, "wrong").select({ query: "deploy notes", page: PAGE });
    expect(run.block).toEqual({ applied: false, reason: "http_error" });
  });

  it("the magic words in the query: timeout-please, error-please, refuse-please, garbage-please, drop-all-please", async () => {
    expect((await selector(200).select({ query: "please timeout-please now", page: PAGE })).block).toEqual({
      applied: false,
      reason: "timeout",
    });
    expect((await selector().select({ query: "error-please", page: PAGE })).block).toEqual({
      applied: false,
      reason: "http_error",
    });
    expect((await selector().select({ query: "refuse-please", page: PAGE })).block).toEqual({
      applied: false,
      reason: "refused",
    });
    expect((await selector().select({ query: "garbage-please", page: PAGE })).block).toEqual({
      applied: false,
      reason: "unparseable",
    });
    expect((await selector().select({ query: "drop-all-please", page: PAGE })).block).toMatchObject({
      applied: true,
      kept: 0,
      dropped: 4,
    });
    expect((await selector().select({ query: "keep-all-please", page: PAGE })).block).toMatchObject({
      applied: true,
      kept: 4,
      dropped: 0,
    });
    const invented = await selector().select({ query: "invent-id-please", page: PAGE });
    expect(invented.block).toEqual({ applied: false, reason: "unknown_id" });
    expect(invented.trace?.unknown_ids).toEqual(["mem-invented-by-llm"]);
  });

  it("stops cleanly on SIGTERM, even with a request still waiting", async () => {
    // leave a timeout-please request hanging on the server side
    const pending = selector(10_000).select({ query: "timeout-please", page: PAGE });
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // the client sees the connection go: unselected, not a crash
    const run = await pending;
    expect(run.block.applied).toBe(false);
  });
});
