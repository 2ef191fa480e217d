import { describe, expect, it } from "vitest";
import { processSingleton, processSingletonAsync, takeProcessSingleton } from "./process-singleton";

describe("process singletons", () => {
  it("makes a value once per key", () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const key = `test-${Math.random()}`;
    expect(processSingleton(key, make)).toBe(processSingleton(key, make));
    expect(made).toBe(1);
  });

  it("caches nothing when making throws", () => {
    const key = `test-${Math.random()}`;
    expect(() =>
      processSingleton(key, () => {
        throw new Error("bad setting");
      }),
    ).toThrow("bad setting");
    expect(processSingleton(key, () => 7)).toBe(7);
  });

  it("forgets a rejected promise so the next call retries", async () => {
    const key = `test-${Math.random()}`;
    await expect(processSingletonAsync(key, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    await expect(processSingletonAsync(key, async () => "up")).resolves.toBe("up");
    await expect(processSingletonAsync(key, async () => "again")).resolves.toBe("up");
  });

  it("hands a value over once when taken, and makes a new one afterwards", () => {
    const key = `test-${Math.random()}`;
    expect(takeProcessSingleton(key)).toBeUndefined();
    const first = processSingleton(key, () => ({ n: 1 }));
    expect(takeProcessSingleton(key)).toBe(first);
    expect(takeProcessSingleton(key)).toBeUndefined();
    expect(processSingleton(key, () => ({ n: 2 }))).toEqual({ n: 2 });
  });
});
