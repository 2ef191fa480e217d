import type { ComponentProps } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

export type ButtonVariant = "secondary" | "primary" | "ghost" | "danger";
export type ButtonSize = "normal" | "small";

export interface ButtonLookProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/**
 * The button look as a class, for the few things that are links but read as buttons
 * (`<Link className={buttonClassName({ variant: "primary" })}>`).
 */
export function buttonClassName({ variant = "secondary", size = "normal", className }: ButtonLookProps = {}): string {
  return classNames(styles.button, variant !== "secondary" && styles[variant], size === "small" && styles.small, className);
}

/** A button's props, `ref` included (React 19 passes it as a prop). */
export type ButtonProps = ComponentProps<"button"> & ButtonLookProps;

/** A button; `type="button"` unless told otherwise, so one inside a form never submits by accident. */
export function Button({ variant, size, className, type = "button", ...rest }: ButtonProps) {
  return <button type={type} className={buttonClassName({ variant, size, className })} {...rest} />;
}
