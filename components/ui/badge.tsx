import type { ReactNode } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger";

/**
 * A small pill for a status or a tag. The word carries the meaning; the tone only repeats it.
 * (Confidence levels have their own badge with a meter: components/recall.)
 */
export function Badge({
  tone = "neutral",
  title,
  className,
  children,
  "data-testid": testId,
}: {
  tone?: BadgeTone;
  title?: string;
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <span className={classNames(styles.badge, className)} data-tone={tone} title={title} data-testid={testId}>
      {children}
    </span>
  );
}
