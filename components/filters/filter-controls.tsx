"use client";

/**
 * The controls of the recall-log filter bars (History, Insights): one component per kind of
 * control and one stylesheet (filters.module.css), so the pages look and behave alike. Every
 * control reports its value through a callback; the pages keep the state in their URL.
 */
import { useId, type FormEvent, type ReactNode } from "react";
import { buttonClassName } from "@/components/ui/button";
import { useDebouncedCommit } from "@/lib/hooks/use-debounced-commit";
import styles from "./filters.module.css";

/** The bar: a labelled group that wraps its controls. */
export function FilterBar({ children, label = "Filters" }: { children: ReactNode; label?: string }) {
  return (
    <div className={styles.filters} role="group" aria-label={label}>
      {children}
    </div>
  );
}

/** Buttons at the bar's end (Refresh, …). */
export function FilterActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

/** A labelled select; `options` are [value, text] pairs, "" standing for "any". */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  testId,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [value: string, text: string, disabled?: boolean])[];
  testId?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={`${styles.field} ${className ?? ""}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map(([v, text, disabled]) => (
          <option key={v} value={v} disabled={disabled}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

const DEBOUNCE_MS = 300;

/**
 * A text box that keeps what the person types and commits it after a pause (or on Enter); when
 * the committed value changes on its own (back/forward, "Clear filters") the box follows it.
 */
export function DebouncedText({
  label,
  value,
  onCommit,
  placeholder,
  maxLength,
  type = "text",
  search = false,
}: {
  label: string;
  value: string;
  onCommit: (text: string) => void;
  placeholder?: string;
  maxLength?: number;
  type?: "text" | "search";
  /** The wide search box of the bar. */
  search?: boolean;
}) {
  const id = useId();
  const { text, setText, commitNow: commit } = useDebouncedCommit(value, onCommit, { delayMs: DEBOUNCE_MS });
  const commitNow = (event?: FormEvent) => {
    event?.preventDefault();
    commit();
  };
  return (
    <form
      className={`${styles.field} ${search ? styles.search : ""}`}
      onSubmit={commitNow}
      role={type === "search" ? "search" : undefined}
    >
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => commitNow()}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        spellCheck={false}
      />
    </form>
  );
}

/** Toggle chips for a set of values (OR): e.g. the levels. Unchecking all means "any". */
export function CheckChips<T extends string>({
  label,
  options,
  value,
  onChange,
  word,
  testId,
}: {
  label: string;
  options: readonly T[];
  value: readonly T[] | undefined;
  onChange: (next: T[] | undefined) => void;
  word: (option: T) => string;
  testId?: string;
}) {
  const id = useId();
  const selected = new Set(value ?? []);
  const toggle = (option: T, on: boolean) => {
    const next = options.filter((o) => (o === option ? on : selected.has(o)));
    onChange(next.length ? next : undefined);
  };
  return (
    <div className={styles.levels} role="group" aria-labelledby={`${id}-legend`} data-testid={testId}>
      <span id={`${id}-legend`} className={styles.groupLabel}>
        {label}
      </span>
      <div className={styles.levelOptions}>
        {options.map((option) => (
          <label key={option} htmlFor={`${id}-${option}`} className={styles.check} data-level={option}>
            <input
              id={`${id}-${option}`}
              type="checkbox"
              checked={selected.has(option)}
              onChange={(e) => toggle(option, e.target.checked)}
            />
            {word(option)}
          </label>
        ))}
      </div>
    </div>
  );
}

/** The classes TimeRangePicker takes, from the shared stylesheet. */
export const TIME_RANGE_CLASSES = {
  field: styles.field!,
  customRange: styles.customRange!,
  button: buttonClassName(),
  fieldError: styles.fieldError!,
};

/** A run of controls kept together when the bar wraps (e.g. the time select and its custom form). */
export function FilterGroup({ children }: { children: ReactNode }) {
  return <div className={styles.group}>{children}</div>;
}
