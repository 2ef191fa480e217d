"use client";

import { useEffect, useRef, useState } from "react";
import styles from "./ui.module.css";

/** Copies through the Clipboard API, falling back to a hidden textarea (plain-http deployments). */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or unavailable: try the selection route below.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export interface CopyButtonProps {
  /** The exact text copied (e.g. the full memory id, even when the cell shows it shortened). */
  value: string;
  /** What is copied, for the accessible name: "Copy <label> <value>". Default "memory id". */
  label?: string;
  className?: string;
  /** Whether the accessible name and title repeat the value (false for long values, e.g. a JSON document). */
  nameValue?: boolean;
}

type CopyState = "idle" | "copied" | "failed";

/**
 * A small "Copy" button. After a click it reads "Copied" (or "Copy failed") for two seconds, and a
 * polite live region announces the outcome to screen readers.
 */
export function CopyButton({ value, label = "memory id", className, nameValue = true }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>("idle");
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  async function onClick() {
    setState("idle"); // a repeat click clears the live region first, so "Copied" is announced again
    const ok = await copyText(value);
    if (mounted.current) setState(ok ? "copied" : "failed");
  }

  return (
    <>
      <button
        type="button"
        className={[styles.copyButton, className ?? ""].filter(Boolean).join(" ")}
        data-state={state}
        onClick={onClick}
        title={nameValue ? `Copy ${label} ${value}` : `Copy ${label}`}
      >
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
        <span className={styles.visuallyHidden}>{nameValue ? ` ${label} ${value}` : ` ${label}`}</span>
      </button>
      <span className={styles.visuallyHidden} role="status" aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? `Could not copy; select the ${label} and copy it by hand.` : ""}
      </span>
    </>
  );
}
