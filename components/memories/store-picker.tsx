"use client";

import { useId } from "react";
import type { StoreOption } from "@/lib/queries/use-recall";
import { StoreOptions } from "@/components/filters/store-options";
import { controlClassName, Field } from "@/components/ui/field";
import styles from "./memories.module.css";

const EMBEDDED_OPTION: StoreOption = {
  name: "embedded",
  kind: "embedded",
  label: "Embedded",
  description: "",
  health: { ok: true },
};

/**
 * Which store the Memories page shows: the embedded one or a configured remote store (with its
 * reachability, as the console's picker says it). `value` is the store's name ("embedded" for the
 * embedded store); a name that is not configured (an old link) stays selectable so the page can
 * say what is wrong with it. While the stores load (`stores` undefined) the current one is listed bare.
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
  const options = stores ?? [EMBEDDED_OPTION];
  const known = options.some((s) => s.name === value);
  return (
    <Field id={id} label="Store" className={styles.store}>
      <select id={id} className={controlClassName} value={value} onChange={(e) => onChange(e.target.value)}>
        <StoreOptions stores={options} />
        {known ? null : (
          <option value={value}>
            {value}
            {stores ? " (not configured)" : ""}
          </option>
        )}
      </select>
    </Field>
  );
}
