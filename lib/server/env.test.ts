import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkEnv, configurationTable, demoCorpusEnabled, EnvError, ENV_NAMES, nearestKnown } from "./env";

function problem(env: Record<string, string>): EnvError {
  try {
    checkEnv(env);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error("checkEnv accepted the environment");
}

describe("checkEnv", () => {
  it("accepts an empty environment and the documented values", () => {
    expect(() => checkEnv({})).not.toThrow();
    expect(() =>
      checkEnv({
        PORT: "4003",
        DEMO_CORPUS: "off",
        EMBEDDING_WORKERS: "2",
        DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db",
        HOME: "/root",
        PATH: "/bin",
      }),
    ).not.toThrow();
  });

  it("names a value that cannot be right, in one line", () => {
    const error = problem({ PORT: "30o0" });
    expect(error.variable).toBe("PORT");
    expect(error.message).toBe('PORT must be a whole number in 1…65535, got "30o0".');
    expect(error.message).not.toContain("\n");
    expect(problem({ DEMO_CORPUS: "of" }).message).toMatch(/^DEMO_CORPUS must be "on" or "off", got "of"/);
    expect(problem({ EMBEDDING_WORKERS: "0" }).variable).toBe("EMBEDDING_WORKERS");
  });

  it("counts the further problems instead of listing them", () => {
    expect(problem({ PORT: "x", DEMO_CORPUS: "maybe" }).message).toMatch(/\(and 1 more setting problems\)$/);
  });

  it("runs the area parsers too: database, embedder, remote stores, LLM selector", () => {
    expect(problem({ DATABASE_URL: "mysql://x" }).message).toMatch(/DATABASE_URL uses the scheme "mysql"/);
    expect(problem({ EMBEDDINGS_BASE_URL: "http://127.0.0.1:1/v1", EMBEDDINGS_MODEL: "m" }).message).toMatch(
      /EMBEDDINGS_DIMENSIONS must be set/,
    );
    expect(problem({ EMBEDDINGS_BASE_URL: "http://127.0.0.1:1/v1" }).message).toMatch(/EMBEDDINGS_MODEL must be set/);
    expect(problem({ REMOTE_STORES: "[not json" }).message).toMatch(/REMOTE_STORES/);
    expect(problem({ SELECTOR_LLM_BASE_URL: "ftp://x", SELECTOR_LLM_MODEL: "m" }).message).toMatch(
      /SELECTOR_LLM_BASE_URL must be an http\(s\) URL/,
    );
  });

  it("flags a name one or two letters off a known one, and leaves other names alone", () => {
    const error = problem({ EMBEDDING_BASE_URL: "http://x" });
    expect(error.variable).toBe("EMBEDDING_BASE_URL");
    expect(error.message).toBe("EMBEDDING_BASE_URL is not a setting of this app; did you mean EMBEDDINGS_BASE_URL?");
    expect(nearestKnown("REMOTE_STORE_UR")).toBe("REMOTE_STORE_URL");
    expect(nearestKnown("PGLITE_DATADIR")).toBe("PGLITE_DATA_DIR");
    expect(nearestKnown("NODE_OPTIONS")).toBeUndefined();
    expect(nearestKnown("VITEST_POOL_ID")).toBeUndefined();
    expect(nearestKnown("path")).toBeUndefined();
  });
});

describe("readers", () => {
  it("DEMO_CORPUS is on unless off", () => {
    expect(demoCorpusEnabled({})).toBe(true);
    expect(demoCorpusEnabled({ DEMO_CORPUS: "off" })).toBe(false);
  });
});

describe("the README's Configuration table", () => {
  it("is the one generated from lib/env.ts (npm run docs:env)", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(
      readme.includes(configurationTable()),
      "README's Configuration table differs from lib/env.ts: add the variable to ENV_SETTINGS there, then paste `npm run docs:env` over the README table",
    ).toBe(true);
  });

  it("lists every variable the code reads", () => {
    for (const name of [
      "DATABASE_URL",
      "PGLITE_DATA_DIR",
      "PORT",
      "DEMO_CORPUS",
      "EMBEDDING_WORKERS",
      "REMOTE_STORE_URL",
      "SELECTOR_LLM_MODEL",
      "NEXT_DIST_DIR",
      "CHROMIUM_PATH",
      "TEST_DATABASE_URL",
    ]) {
      expect(ENV_NAMES.has(name), name).toBe(true);
    }
  });
});
