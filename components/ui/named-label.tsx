import type { ReactNode } from "react";
import styles from "./ui.module.css";

/**
 * A label in plain words with the name it stands for — a threshold constant, an API field — after
 * it in small muted code on a line of its own ("Cosine guard for moderate `abs_low_cosine`"), so a form reads without
 * the jargon and the name stays findable in the docs, the API and a profile's JSON. The name is
 * part of the label's accessible name too (after a space, so the two read as two words:
 * "Cosine guard for moderate abs_low_cosine").
 */
export function NamedLabel({ children, name }: { children: ReactNode; name: string }) {
  return (
    <>
      {children} <code className={styles.constantName}>{name}</code>
    </>
  );
}
