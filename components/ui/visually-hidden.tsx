import type { ReactNode } from "react";
import styles from "./ui.module.css";

/** Text for screen readers only (a table caption, the rest of a shortened label). */
export function VisuallyHidden({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <span className={styles.visuallyHidden} id={id}>
      {children}
    </span>
  );
}

export const visuallyHiddenClassName = styles.visuallyHidden;
