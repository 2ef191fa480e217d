"use client";

import { useId } from "react";
import { StoreOptions } from "@/components/filters/store-options";
import { controlClassName, Field } from "@/components/ui/field";
import type { StoreOption } from "@/lib/queries/use-recall";
import styles from "./memories.module.css";

/**
 * Which store the Memories page shows: an embedded store with what it holds, or a configured
 * remote store with its reachability (as the console's picker says them). `value` is the store's
 * name; a name that is not there (an old link, a deleted store) stays selectable so the page can
 * say what is wrong with it. While the stores load (`stores` undefined) the current one is listed
 * bare ("" — the default store — as "Loading stores…").
 */
export function StorePicker({
  stores,
  value,
  onChange,
}: {
  stores: readonly StoreOption[] | undefined;
  value: string;
  onChange: (store: string) => void;
}) {
  const id = useId();
  const options = stores ?? [];
  const known = options.some((s) => s.name === value);
  return (
    <Field id={id} label="Store" className={styles.store}>
      <select id={id} className={controlClassName} value={value} onChange={(e) => onChange(e.target.value)}>
        <StoreOptions stores={options} />
        {known ? null : <option value={value}>{stores ? `${value} (no such store)` : value || "Loading stores…"}</option>}
      </select>
    </Field>
  );
}
