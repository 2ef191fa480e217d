"use client";

import { useId, useState, type FormEvent, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { plural } from "@/lib/format";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useDeleteStore } from "@/lib/queries/use-stores";
import { FormHead } from "./form-head";
import styles from "./memories.module.css";

/**
 * Deleting an embedded store, confirmed by typing its name: says how many memories go with it and
 * that its recalls stay in History (marked as a deleted store), then `DELETE /api/stores/{name}`.
 */
export function DeleteStoreForm({
  store,
  memories,
  confirmRef,
  onDeleted,
  onClose,
}: {
  store: string;
  /** How many it holds, as the store list counts them; undefined when not known. */
  memories: number | undefined;
  confirmRef: RefObject<HTMLInputElement | null>;
  onDeleted: (outcome: { deleted: string; memories: number }) => void;
  onClose: () => void;
}) {
  const id = useId();
  const remove = useDeleteStore();
  const [typed, setTyped] = useState("");
  const matches = typed.trim() === store;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!matches) {
      confirmRef.current?.focus();
      return;
    }
    try {
      onDeleted(await remove.mutateAsync(store));
    } catch {
      // Shown below by remove.isError.
    }
  };

  const goes =
    memories === undefined
      ? "all its memories go with it"
      : memories === 0
        ? "it holds no memories"
        : `${plural(memories, "memory", "memories")} ${memories === 1 ? "goes" : "go"} with it`;
  const confirmId = `${id}-confirm`;

  return (
    <form
      className={styles.storeForm}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="delete-store"
      onKeyDown={(e) => {
        if (e.key === "Escape" && !remove.isPending) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <FormHead title={`Delete store ${store}`} titleId={`${id}-title`} onClose={onClose} />
      <p className={styles.deleteWarning}>
        <strong>
          Delete store “{store}”: {goes}.
        </strong>{" "}
        This cannot be undone. Its recalls stay in History, marked as a deleted store.
      </p>
      <Field id={confirmId} label={`Type “${store}” to confirm`}>
        <TextInput ref={confirmRef} id={confirmId} value={typed} onChange={(e) => setTyped(e.target.value)} />
      </Field>
      {remove.isError ? <Notice tone="error">Could not delete the store: {errorMessage(remove.error)}</Notice> : null}
      <div className={styles.formActions}>
        <Button type="submit" variant="danger" disabled={!matches || remove.isPending}>
          {remove.isPending ? "Deleting…" : `Delete store ${store}`}
        </Button>
        <Button onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
