"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A text box's state for filters kept in the URL: it holds what the person types, commits the
 * trimmed text after a pause (or at once through `commitNow`, for Enter and blur), and follows
 * `value` when the URL changes on its own (back/forward, "Clear filters").
 * `eager(text)` false keeps a value from committing on the pause alone.
 */
export function useDebouncedCommit(
  value: string,
  onCommit: (text: string) => void,
  { delayMs = 300, eager }: { delayMs?: number; eager?: (text: string) => boolean } = {},
) {
  const [text, setText] = useState(value);
  const committed = useRef(value);

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  const commit = useCallback(
    (raw: string) => {
      const next = raw.trim();
      if (next === committed.current) return;
      committed.current = next;
      onCommit(next);
    },
    [onCommit],
  );

  useEffect(() => {
    const next = text.trim();
    if (next === committed.current || (eager && !eager(next))) return;
    const timer = setTimeout(() => commit(next), delayMs);
    return () => clearTimeout(timer);
  }, [text, commit, eager, delayMs]);

  return { text, setText, commitNow: () => commit(text) };
}
