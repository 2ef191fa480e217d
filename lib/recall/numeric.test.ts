import { describe, expect, it } from "vitest";
import { bitLength, fmean, format2, formatFixed, fsum, isqrt, pstdev, ratioToDouble, round3, roundHalfEven } from "./numeric";
import { mulberry32 } from "./test-support/prng";

// Expected values below were computed with CPython 3.11 (round, format, math.fsum,
// statistics.fmean, statistics.pstdev).

describe("round3 = Python round(x, 3)", () => {
  it("rounds exact binary ties half to even, unlike toFixed", () => {
    // 0.0625 = 1/16 is an exact tie at the 4th decimal.
    expect(round3(0.0625)).toBe(0.062);
    expect((0.0625).toFixed(3)).toBe("0.063"); // the naive method gets it wrong
    expect(round3(0.1875)).toBe(0.188);
    expect(round3(-0.0625)).toBe(-0.062);
    expect(round3(1234567.0625)).toBe(1234567.062);
  });

  it("rounds non-ties by their exact binary value", () => {
    expect(round3(0.0005)).toBe(0.001); // 0.0005 is stored slightly above the tie
    expect(round3(1.0005)).toBe(1.0); // 1.0005 is stored slightly below the tie
    expect(roundHalfEven(2.675, 2)).toBe(2.67); // 2.67499999999999982236431605997495353221893310546875
    expect(round3(0.919)).toBe(0.919);
    expect(round3(0.5591484)).toBe(0.559);
  });

  it("keeps the sign of zero and handles extremes", () => {
    expect(Object.is(round3(-1e-9), -0)).toBe(true);
    expect(Object.is(round3(5e-324), 0)).toBe(true);
    expect(round3(1e300)).toBe(1e300);
    expect(round3(2 ** 51 + 0.5)).toBe(2 ** 51 + 0.5);
    expect(round3(-(2 ** 40) - 0.0625)).toBe(-(2 ** 40) - 0.062);
    expect(round3(123456789.12345)).toBe(123456789.123);
  });

  it("agrees with toFixed(3) away from exact ties (random doubles)", () => {
    const rng = mulberry32(11);
    for (let i = 0; i < 5000; i++) {
      const x = rng.uniform(-50, 50) * 10 ** rng.int(-6, 2);
      expect(round3(x)).toBe(Number(x.toFixed(3)));
    }
  });

  it("rounds every dyadic tie k/16 half to even", () => {
    for (let k = -64; k <= 64; k++) {
      const x = k / 16;
      const thousandths = Math.abs(x) * 1000; // exact: x has at most 4 binary fraction bits
      const floor = Math.floor(thousandths);
      const frac = thousandths - floor;
      const expected = frac < 0.5 ? floor : frac > 0.5 ? floor + 1 : floor % 2 === 0 ? floor : floor + 1;
      expect(round3(x)).toBe(Math.sign(x) * (expected / 1000) || (x < 0 ? -0 : 0));
    }
  });

  it("rejects non-finite values and unsupported digit counts", () => {
    expect(() => round3(NaN)).toThrow(RangeError);
    expect(() => round3(Infinity)).toThrow(RangeError);
    expect(() => roundHalfEven(0.5, 5)).toThrow(RangeError);
    expect(() => formatFixed(0.5, -1)).toThrow(RangeError);
  });
});

describe("format2 = Python '{:.2f}'", () => {
  it("rounds exact ties half to even on the binary value", () => {
    expect(format2(0.125)).toBe("0.12");
    expect((0.125).toFixed(2)).toBe("0.13"); // the naive method gets it wrong
    expect(format2(0.375)).toBe("0.38");
    expect(format2(0.625)).toBe("0.62");
    expect(format2(-0.125)).toBe("-0.12");
  });

  it("matches Python on representation-driven cases", () => {
    expect(format2(2.675)).toBe("2.67");
    expect(format2(0.005)).toBe("0.01");
    expect(format2(0.015)).toBe("0.01");
    expect(format2(1.005)).toBe("1.00");
    expect(format2(0.5894285714285715)).toBe("0.59");
    expect(format2(91.92388155425118)).toBe("91.92");
  });

  it("keeps a minus sign on negative zero results, like Python", () => {
    expect(format2(-0.0025)).toBe("-0.00");
    expect(format2(-0)).toBe("-0.00");
    expect(format2(0)).toBe("0.00");
  });

  it("never switches to exponent notation", () => {
    expect(format2(1e20)).toBe("100000000000000000000.00");
    expect(format2(1e21)).toBe("1000000000000000000000.00");
    expect(formatFixed(5e-7, 3)).toBe("0.000");
    expect(formatFixed(12.5, 0)).toBe("12");
    expect(formatFixed(13.5, 0)).toBe("14");
  });

  it("agrees with toFixed(2) away from exact ties (random doubles)", () => {
    const rng = mulberry32(12);
    for (let i = 0; i < 5000; i++) {
      const x = rng.uniform(-100, 100);
      expect(format2(x)).toBe(x.toFixed(2));
    }
  });
});

describe("fsum / fmean (math.fsum, statistics.fmean)", () => {
  it("is exactly rounded", () => {
    expect(fsum(Array.from({ length: 10 }, () => 0.1))).toBe(1.0);
    expect(fsum([1e100, 1.0, -1e100, 1e-100])).toBe(1.0);
    expect(fsum([1.0, 1e-16, 1e-16])).toBe(1.0000000000000002);
    expect(fsum([])).toBe(0);
    expect(Object.is(fsum([-0, -0]), 0)).toBe(true); // CPython returns +0.0
  });

  it("gives fmean's value where a naive sum is off by an ulp", () => {
    const bg = [0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5];
    expect(fmean(bg)).toBe(0.5894285714285715);
    expect(bg.reduce((a, b) => a + b, 0) / bg.length).toBe(0.5894285714285713);
  });

  it("matches CPython on larger lists", () => {
    const xs = Array.from({ length: 1000 }, (_, i) => (((i * 7919) % 2003) - 1001) / 1009);
    expect(fsum(xs)).toBe(4.541129831516352);
    expect(fmean(xs)).toBe(0.004541129831516353);
    const ys = Array.from({ length: 5000 }, (_, i) => (((i * 7919) % 2003) / 1009) * 1e-3 + (i % 7) * 1e3);
    expect(fsum(ys)).toBe(14995004.962129831);
    expect(fmean(ys)).toBe(2999.000992425966);
  });

  it("is independent of order", () => {
    const rng = mulberry32(3);
    for (let i = 0; i < 300; i++) {
      const xs = Array.from({ length: rng.int(1, 40) }, () => rng.uniform(-1, 1) * 10 ** rng.int(-8, 8));
      expect(fsum(rng.shuffle(xs))).toBe(fsum(xs));
    }
  });
});

describe("pstdev (statistics.pstdev, correctly rounded)", () => {
  it("matches CPython", () => {
    expect(pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75])).toBe(0.986893273527251);
    expect(pstdev([0.1, 0.2, 0.3])).toBe(0.0816496580927726);
    expect(pstdev([0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5])).toBe(0.06606459424112812);
    expect(pstdev([0.3, 0.31, 0.29, 0.3])).toBe(0.007071067811865481);
    expect(pstdev([1e-300, 3e-300, 5e-324, 2e-310])).toBe(1.2247448713507644e-300);
    expect(pstdev([1e15, -1e15, 0.1, 3.3e-7])).toBe(707106781186547.5);
    const xs = Array.from({ length: 1000 }, (_, i) => (((i * 7919) % 2003) - 1001) / 1009);
    expect(pstdev(xs)).toBe(0.5738850901218939);
    const ys = Array.from({ length: 5000 }, (_, i) => (((i * 7919) % 2003) / 1009) * 1e-3 + (i % 7) * 1e3);
    expect(pstdev(ys)).toBe(2000.2497351330283);
  });

  it("is exactly 0 for a flat list and for one value", () => {
    expect(pstdev([0.55, 0.55, 0.55])).toBe(0);
    expect(pstdev([0.7])).toBe(0);
  });

  it("agrees with Math.sqrt on lists whose variance is an exact double", () => {
    // Values k/8 with n = 4: the variance is a dyadic rational the double holds exactly.
    const rng = mulberry32(4);
    for (let i = 0; i < 500; i++) {
      const xs = Array.from({ length: 4 }, () => rng.int(-64, 64) / 8);
      const mean = xs.reduce((a, b) => a + b, 0) / 4;
      const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / 4;
      expect(pstdev(xs)).toBe(Math.sqrt(variance));
    }
  });
});

describe("exact integer helpers", () => {
  it("ratioToDouble equals IEEE division for integers below 2^53", () => {
    const rng = mulberry32(5);
    for (let i = 0; i < 3000; i++) {
      const a = Math.floor(rng.next() * 2 ** rng.int(1, 53));
      const b = 1 + Math.floor(rng.next() * 2 ** rng.int(1, 53));
      expect(ratioToDouble(BigInt(a), BigInt(b))).toBe(a / b);
    }
  });

  it("ratioToDouble handles subnormal and overflowing results", () => {
    expect(ratioToDouble(1n, 1n << 1074n)).toBe(5e-324);
    expect(ratioToDouble(1n, 1n << 1076n)).toBe(0);
    expect(ratioToDouble(3n, 1n << 1075n)).toBe(1e-323); // 1.5 ulps → ties to even (2 ulps)
    expect(ratioToDouble(1n << 1024n, 1n)).toBe(Infinity);
  });

  it("isqrt is the floor square root", () => {
    const rng = mulberry32(6);
    for (let i = 0; i < 500; i++) {
      const n = BigInt(Math.floor(rng.next() * 2 ** 52)) * BigInt(Math.floor(rng.next() * 2 ** 52)) + BigInt(i);
      const r = isqrt(n);
      expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true);
    }
    expect(isqrt(0n)).toBe(0n);
    expect(isqrt(1n)).toBe(1n);
    expect(isqrt(15n)).toBe(3n);
    expect(isqrt(16n)).toBe(4n);
  });

  it("bitLength counts significant bits", () => {
    expect(bitLength(0n)).toBe(0);
    expect(bitLength(1n)).toBe(1);
    expect(bitLength(255n)).toBe(8);
    expect(bitLength(256n)).toBe(9);
    expect(bitLength(1n << 1000n)).toBe(1001);
  });
});
