"use client";

import { useEffect, useState } from "react";

/**
 * The width of an element in px, rounded down to `step` so that small resizes do not re-render,
 * and `null` until it has been measured (server render, first paint). Follows resizes (a phone
 * turned sideways) and an element that mounts later: pass the returned callback as its `ref`.
 */
export function useElementWidth(step = 20): [(element: HTMLElement | null) => void, number | null] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width ?? 0;
      setWidth(Math.floor(measured / step) * step);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, step]);
  return [setElement, width];
}
