import { describe, expect, it } from "vitest";
import { decodeKeysetCursor, encodeKeysetCursor, fromBase64Url, keysetAfter, keysetPage, toBase64Url } from "./keyset";

const anyId = (id: string) => id.length > 0;

describe("the keyset cursor", () => {
  it("round-trips a position, ids of any shape the caller accepts", () => {
    const at = new Date("2025-03-04T05:06:07.089Z");
    for (const id of ["coffee", "3f2a1b9c-5d6e-4f70-8a9b-0c1d2e3f4a5b", "ünïcode ✓"]) {
      expect(decodeKeysetCursor(encodeKeysetCursor({ createdAt: at, id }), anyId)).toEqual({ createdAt: at, id });
    }
  });

  it("refuses what it did not write", () => {
    expect(decodeKeysetCursor("garbage", anyId)).toBeNull();
    expect(decodeKeysetCursor(toBase64Url('["2025-01-01T00:00:00Z","a"]'), anyId)).toBeNull(); // not millisecond ISO
    expect(decodeKeysetCursor(toBase64Url('["2025-01-01T00:00:00.000Z",""]'), anyId)).toBeNull();
    expect(decodeKeysetCursor(toBase64Url('["2025-01-01T00:00:00.000Z","a","b"]'), anyId)).toBeNull();
    expect(decodeKeysetCursor("x".repeat(401), anyId)).toBeNull();
  });

  it("base64url is unpadded and strict", () => {
    expect(toBase64Url("ab")).toBe("YWI");
    expect(fromBase64Url("YWI")).toBe("ab");
    expect(fromBase64Url("YWI=")).toBeNull();
    expect(fromBase64Url("A")).toBeNull();
  });
});

describe("keysetAfter and keysetPage", () => {
  it("is the row comparison (created_at, id) < (c, i), with a range part an index can start from", () => {
    const at = new Date("2025-01-01T00:00:00.000Z");
    expect(keysetAfter({ createdAt: at, id: "m5" })).toEqual([
      { createdAt: { lte: at } },
      { OR: [{ createdAt: { lt: at } }, { id: { lt: "m5" } }] },
    ]);
  });

  it("cuts limit + 1 rows to a page and a cursor naming its last row", () => {
    const rows = [3, 2, 1].map((n) => ({ createdAt: new Date(Date.UTC(2025, 0, n)), id: `m${n}` }));
    const { page, nextCursor } = keysetPage(rows, 2);
    expect(page.map((r) => r.id)).toEqual(["m3", "m2"]);
    expect(decodeKeysetCursor(nextCursor!, anyId)).toEqual({ createdAt: rows[1]!.createdAt, id: "m2" });
    expect(keysetPage(rows, 3).nextCursor).toBeNull();
  });
});
