import type { ComponentProps, ReactNode } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

/** The class every text input, select and textarea takes, so all forms look alike. */
export const controlClassName = styles.control;

/**
 * A one-line text box for an id or a few words, in the control look: no autocomplete and no
 * spell check (ids are not words). Its label is the caller's (a `<label htmlFor>` or a Field).
 */
export function TextInput({ className, type = "text", ...rest }: ComponentProps<"input">) {
  return <input type={type} autoComplete="off" spellCheck={false} className={classNames(styles.control, className)} {...rest} />;
}

/** The ids a field's control points at with `aria-describedby` (hint first, then the error). */
export function fieldDescribedBy(id: string, { hint, error }: { hint?: ReactNode; error?: ReactNode }): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

export interface FieldProps {
  /** The control's id: the label points at it and the hint/error ids derive from it. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control, announced; the control should set `aria-invalid` and `aria-describedby={fieldDescribedBy(…)}`. */
  error?: ReactNode;
  required?: boolean;
  className?: string;
  children: ReactNode;
}

/** A labelled form control with its hint and error in words (never raw validation text). */
export function Field({ id, label, hint, error, required, className, children }: FieldProps) {
  return (
    <div className={classNames(styles.field, className)}>
      <label htmlFor={id} className={styles.fieldLabel}>
        {label}
        {required ? (
          <span className={styles.required} aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A Field holding one TextInput: the label, hint and error wired to it (`aria-describedby`,
 * `aria-invalid` when there is an error). The input's other props pass through.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  required,
  className,
  inputClassName,
  ...input
}: Omit<FieldProps, "children"> & { inputClassName?: string } & Omit<ComponentProps<"input">, "id" | "className">) {
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required} className={className}>
      <TextInput
        id={id}
        className={inputClassName}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error })}
        {...input}
      />
    </Field>
  );
}
