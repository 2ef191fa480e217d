import { describe, expect, it } from "vitest";
import { instantiateKernels } from "./index";

describe("the floor kernel", () => {
  // Lane 0 of every 16 bytes read is OR-ed into the stored word, so each row's bits show whether it was read.
  it("reads exactly the n rows it is given, through the 64-byte steps and the 16-byte tail", () => {
    const k = instantiateKernels(4);
    const words = new Uint32Array(k.memory.buffer);
    const m = 4096;
    const out = 1024;
    for (const [stride, n] of [
      [32, 5],
      [48, 3],
      [2048, 7],
      [16, 1],
    ] as const) {
      words.fill(0, m / 4, m / 4 + 10_000);
      // Row r's first word holds bit r; the word right after the last row holds bit 30.
      for (let r = 0; r < n; r++) words[(m + r * stride) / 4] = 1 << r;
      words[(m + n * stride) / 4] = 1 << 30;
      k.rows.scan("streamRows", 0, m, n, stride, out);
      expect(words[out / 4]).toBe((1 << n) - 1);
    }
  });
});
