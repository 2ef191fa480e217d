/**
 * Bringing an answer into view and giving it the focus: the console's result after Run recall (its
 * heading focused, the verdict in view) and "why isn't X here?" after Why? (the explanation). On a
 * phone the answer renders below the fold, and focus left on a button that scrolled away, or on the
 * body, reads as "nothing happened". The scroll is worked out by a pure function (unit-tested);
 * `revealAndFocus` only measures and applies it.
 */

/** Marks the part of a result that must be read after a run: the verdict, or why the store failed. */
export const REVEAL_VERDICT = { "data-reveal": "verdict" } as const;
export const REVEAL_TARGET_SELECTOR = '[data-reveal="verdict"]';

/** A vertical extent in viewport coordinates (as `getBoundingClientRect` gives it). */
export interface Span {
  top: number;
  bottom: number;
}

/** The part of the viewport content can be read in: below the sticky app header, above the bottom edge. */
export interface Band {
  top: number;
  bottom: number;
}

/** Half a pixel of slack: layout rounds subpixel positions. */
const SLACK = 0.5;

/** Whether a span lies wholly inside the band. */
export function spanInBand(span: Span, band: Band): boolean {
  return span.top >= band.top - SLACK && span.bottom <= band.bottom + SLACK;
}

/**
 * How far to scroll the page (px; positive scrolls down) so that `lead` (the focused heading)
 * through `target` (what must be read: the verdict) are in view; null when both already are, so a
 * desktop where the answer is on screen does not move. A scroll puts the heading `margin` px under
 * the band's top, so the answer reads from its start with as much of it below as the screen holds
 * (on a phone, not the verdict's last line at the bottom edge under the form). When the two do not
 * fit together the target's top goes there instead: reading the answer matters more than seeing
 * its heading.
 */
export function revealScrollDelta(lead: Span, target: Span, band: Band, margin = 8): number | null {
  const union = { top: Math.min(lead.top, target.top), bottom: Math.max(lead.bottom, target.bottom) };
  if (spanInBand(union, band)) return null;
  const room = band.bottom - band.top - 2 * margin;
  return (union.bottom - union.top <= room ? union.top : target.top) - (band.top + margin);
}

/** `smooth`, unless the reader asked the system for less motion. */
export function scrollBehaviorFor(reducedMotion: boolean): ScrollBehavior {
  return reducedMotion ? "auto" : "smooth";
}

function span(element: Element): Span {
  const { top, bottom } = element.getBoundingClientRect();
  return { top, bottom };
}

/**
 * Focuses `focus` (an element with tabIndex −1) without the browser's own jump, then scrolls the
 * page only as far as needed for it and `target` to be read. The band's top is `focus`'s
 * `scroll-margin-top` (the height of the sticky app header, set in the element's CSS).
 */
export function revealAndFocus(focus: HTMLElement, target: Element = focus, { moveFocus = true } = {}): void {
  if (moveFocus) focus.focus({ preventScroll: true });
  const inset = Number.parseFloat(getComputedStyle(focus).scrollMarginTop) || 0;
  const delta = revealScrollDelta(span(focus), span(target), { top: inset, bottom: window.innerHeight });
  if (delta === null) return;
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
  window.scrollBy({ top: delta, behavior: scrollBehaviorFor(reduced) });
}
