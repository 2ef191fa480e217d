"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Button } from "./button";
import {
  hiddenColumnsKey,
  readHiddenColumns,
  setColumnShown,
  writeHiddenColumns,
  type ColumnChoice,
  type HiddenColumns,
} from "./column-visibility";
import styles from "./ui.module.css";

/*
 * Why the choice lives in the browser (localStorage) and not in the URL: which columns to show is
 * how one person likes to read a table, not what the table shows. History's URL is its filters —
 * the API's own parameters, kept in saved views and pasted into the what-if — so a shared link
 * shows the recipient the same recalls in their own columns, and a column choice never becomes a
 * filter the API, a saved view or an old link would have to understand.
 */

// Writes in this tab reach every table using the same key at once; other tabs through `storage`.
const listeners = new Set<() => void>();
// Where localStorage is unavailable (blocked, private mode), the choice lasts the page's life.
const fallback = new Map<string, string>();

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== null) fallback.delete(event.key);
    onChange();
  };
  listeners.add(onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onStorage);
  };
}

function readStored(key: string): string | null {
  if (fallback.has(key)) return fallback.get(key)!;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
    fallback.delete(key);
  } catch {
    fallback.set(key, value);
  }
  for (const listener of listeners) listener();
}

/**
 * One table's hidden columns, kept in the browser under `table`'s key. The server's HTML and the
 * first client render show every column (the server cannot read the choice); the stored one
 * applies right after hydration. `columns` must be a module constant (its identity is a memo key).
 */
export function useHiddenColumns<Id extends string>(
  table: string,
  columns: readonly ColumnChoice<Id>[],
): [HiddenColumns<Id>, (next: HiddenColumns<Id>) => void] {
  const key = hiddenColumnsKey(table);
  const stored = useSyncExternalStore(
    subscribe,
    () => readStored(key),
    () => null,
  );
  const hidden = useMemo(() => readHiddenColumns(stored, columns), [stored, columns]);
  const setHidden = useCallback((next: HiddenColumns<Id>) => writeStored(key, writeHiddenColumns(next, columns)), [key, columns]);
  return [hidden, setHidden];
}

/**
 * The "Columns" control: a button that discloses a checkbox per column (a key column ticked and
 * disabled). Keyboard: Tab into the list, Space ticks, Escape closes and returns to the button;
 * a click or focus elsewhere closes it too.
 */
export function ColumnPicker<Id extends string>({
  columns,
  hidden,
  onChange,
  "data-testid": testId,
}: {
  columns: readonly ColumnChoice<Id>[];
  hidden: HiddenColumns<Id>;
  onChange: (next: HiddenColumns<Id>) => void;
  "data-testid"?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const hiddenCount = columns.filter((column) => hidden.has(column.id) && !column.required).length;

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
    };
  }, [open]);

  return (
    <div
      ref={root}
      className={styles.columnPicker}
      data-testid={testId}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.preventDefault();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <Button ref={button} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        Columns
        {hiddenCount > 0 ? <span className={styles.columnCount}>{`· ${hiddenCount} hidden`}</span> : null}
      </Button>
      {/* Rendered only while open: closed, its checkboxes ("Label", "Store") are no second control of those names. */}
      {open ? (
        <div id={panelId} className={styles.columnPanel}>
          <fieldset>
            <legend>Show columns</legend>
            {columns.map((column) => {
              const shown = column.required || !hidden.has(column.id);
              return (
                <label key={column.id} className={styles.columnOption} data-required={column.required || undefined}>
                  <input
                    type="checkbox"
                    checked={shown}
                    disabled={column.required}
                    onChange={(event) => onChange(setColumnShown(hidden, columns, column.id, event.target.checked))}
                  />
                  {column.label}
                  {column.required ? <span className={styles.columnNote}> (always shown)</span> : null}
                </label>
              );
            })}
          </fieldset>
          <p className={styles.columnNote}>Kept in this browser, not in the page’s link.</p>
          {hiddenCount > 0 ? (
            <div className={styles.columnActions}>
              <Button
                size="small"
                variant="ghost"
                onClick={() => {
                  onChange(new Set());
                  // This button goes with the last hidden column: focus goes back to "Columns", not to the page.
                  button.current?.focus();
                }}
              >
                Show all
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
