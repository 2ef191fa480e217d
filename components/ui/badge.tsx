import type { HTMLAttributes, ReactNode } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger";

/**
 * A small pill for a status or a tag. The word carries the meaning; the tone only repeats it.
 * (Confidence levels have their own badge with a meter: components/recall.) Other attributes
 * (`data-*`, `id`) pass through to the span.
 */
export function Badge({
  tone = "neutral",
  className,
  children,
  ...rest
}: Omit<HTMLAttributes<HTMLSpanElement>, "children"> & {
  tone?: BadgeTone;
  children: ReactNode;
  "data-testid"?: string;
  [data: `data-${string}`]: string | undefined;
}) {
  return (
    <span className={classNames(styles.badge, className)} data-tone={tone} {...rest}>
      {children}
    </span>
  );
}
