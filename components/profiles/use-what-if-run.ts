"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { WhatIfSummary } from "@/lib/calibration/what-if";
import { whatIfBody, type WhatIfParams } from "@/lib/calibration/what-if-params";

export type WhatIfResult = WhatIfSummary & { cancelled: boolean };

export interface WhatIfRunState {
  running: boolean;
  progress: { done: number; total: number } | null;
  result: WhatIfResult | null;
  /** The state the shown result was computed for (the run in flight may be for a newer one). */
  resultFor: WhatIfParams | null;
  error: string | null;
}

const IDLE: WhatIfRunState = { running: false, progress: null, result: null, resultFor: null, error: null };

/**
 * Runs `POST /api/what-if` and reads its JSON Lines. A new run cancels the one in flight (live
 * editing starts one per change), and only the newest run's events reach the state, so a slow
 * earlier answer never overwrites a later one. The last result stays on screen while the next
 * one computes.
 */
export function useWhatIfRun() {
  const [state, setState] = useState<WhatIfRunState>(IDLE);
  const current = useRef<{ id: number; controller: AbortController } | null>(null);
  const counter = useRef(0);

  const start = useCallback(async (params: WhatIfParams) => {
    current.current?.controller.abort();
    const id = ++counter.current;
    const controller = new AbortController();
    current.current = { id, controller };
    const mine = () => current.current?.id === id;
    setState((s) => ({ ...s, running: true, progress: null, error: null }));
    try {
      const response = await fetch("/api/what-if", {
        method: "POST",
        body: JSON.stringify(whatIfBody(params)),
        headers: { "content-type": "application/json" },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const envelope = await response.json().catch(() => null);
        throw new Error(envelope?.message ?? `The server answered ${response.status}.`);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const event = JSON.parse(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (!mine()) return;
          if (event.type === "start") setState((s) => ({ ...s, progress: { done: 0, total: event.total } }));
          else if (event.type === "progress") setState((s) => ({ ...s, progress: { done: event.done, total: event.total } }));
          else if (event.type === "result") setState((s) => ({ ...s, result: event, resultFor: params }));
          else if (event.type === "error") throw new Error(event.message);
        }
      }
      if (mine()) setState((s) => ({ ...s, running: false }));
    } catch (e) {
      if (!mine()) return;
      const message = controller.signal.aborted ? "Cancelled." : e instanceof Error ? e.message : "The what-if failed.";
      setState((s) => ({ ...s, running: false, error: message }));
    }
  }, []);

  const cancel = useCallback(() => current.current?.controller.abort(), []);

  // Leaving the page stops the server's work too.
  useEffect(() => () => current.current?.controller.abort(), []);

  return { state, start, cancel };
}
