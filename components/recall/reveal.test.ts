import { describe, expect, it } from "vitest";
import { revealScrollDelta, scrollBehaviorFor, spanInBand } from "./reveal";

// A phone: 844 px tall, the sticky app header 72 px (the heading's scroll-margin-top).
const PHONE = { top: 72, bottom: 844 };

describe("spanInBand", () => {
  it("holds a span wholly inside, with half a pixel of rounding", () => {
    expect(spanInBand({ top: 72, bottom: 844 }, PHONE)).toBe(true);
    expect(spanInBand({ top: 71.7, bottom: 844.4 }, PHONE)).toBe(true);
  });
  it("refuses a span under the sticky header or past the bottom edge", () => {
    expect(spanInBand({ top: 60, bottom: 200 }, PHONE)).toBe(false);
    expect(spanInBand({ top: 700, bottom: 900 }, PHONE)).toBe(false);
  });
});

describe("revealScrollDelta", () => {
  it("does not scroll when the heading and the verdict are both in view (a desktop)", () => {
    expect(revealScrollDelta({ top: 400, bottom: 430 }, { top: 500, bottom: 620 }, { top: 72, bottom: 900 })).toBeNull();
  });

  it("scrolls a verdict below the fold into view with the heading at the top", () => {
    // The result under the form on a phone: heading at 900, verdict ends at 1400.
    const delta = revealScrollDelta({ top: 900, bottom: 940 }, { top: 1200, bottom: 1400 }, PHONE);
    expect(delta).toBe(900 - (72 + 8));
    // After the scroll both are inside the band, the heading just under the sticky header.
    expect(900 - delta!).toBe(80);
    expect(1400 - delta!).toBeLessThanOrEqual(844);
  });

  it("scrolls when only the verdict's end is below the fold", () => {
    expect(revealScrollDelta({ top: 500, bottom: 540 }, { top: 700, bottom: 850 }, PHONE)).toBe(500 - 80);
  });

  it("scrolls up when the heading is hidden under the sticky header", () => {
    expect(revealScrollDelta({ top: 40, bottom: 70 }, { top: 100, bottom: 300 }, PHONE)).toBe(40 - 80);
    expect(revealScrollDelta({ top: -500, bottom: -470 }, { top: -300, bottom: -100 }, PHONE)).toBe(-500 - 80);
  });

  it("puts the verdict's top at the band's top when heading and verdict do not fit together", () => {
    expect(revealScrollDelta({ top: 900, bottom: 940 }, { top: 1900, bottom: 2100 }, PHONE)).toBe(1900 - 80);
  });

  it("reveals one element alone (the why answer: lead and target the same)", () => {
    const answer = { top: 700, bottom: 1000 };
    expect(revealScrollDelta(answer, answer, PHONE)).toBe(700 - 80);
    expect(revealScrollDelta({ top: 100, bottom: 300 }, { top: 100, bottom: 300 }, PHONE)).toBeNull();
    // Taller than the screen: its top at the band's top.
    expect(revealScrollDelta({ top: 600, bottom: 1800 }, { top: 600, bottom: 1800 }, PHONE)).toBe(600 - 80);
  });
});

describe("scrollBehaviorFor", () => {
  it("scrolls smoothly unless the system asks for reduced motion", () => {
    expect(scrollBehaviorFor(false)).toBe("smooth");
    expect(scrollBehaviorFor(true)).toBe("auto");
  });
});
