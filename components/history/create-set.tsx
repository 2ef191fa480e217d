"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { Button, buttonClassName } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useCreateDataset } from "@/lib/queries/use-eval";
import type { HistoryItem } from "@/lib/recall-log/history";
import { labeledSetItems, SKIP_REASON_TEXT, type SkipReason } from "@/lib/recall-log/labeled-set";
import styles from "./history.module.css";

/**
 * "Create set" for the recalls selected in History: their labels become the items of a labeled
 * query set (lib/recall-log/labeled-set), posted to `POST /api/datasets`. Says beforehand how many
 * items it will make and why any selected recall gives none. With exactly two selected it also
 * opens them side by side (the older as A).
 */
export function CreateSetBar({ selected, onClear }: { selected: HistoryItem[]; onClear: () => void }) {
  const nameId = useId();
  // The Evaluate page's hook: its set list is refreshed once this one is stored.
  const createDataset = useCreateDataset();
  const [name, setName] = useState("");
  const [state, setState] = useState<
    { kind: "idle" } | { kind: "saving" } | { kind: "done"; id: string; count: number } | { kind: "error"; message: string }
  >({
    kind: "idle",
  });
  const draft = labeledSetItems(selected);
  const reasons = new Map<SkipReason, number>();
  for (const s of draft.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const skippedText = [...reasons].map(([reason, n]) => `${n} ${SKIP_REASON_TEXT[reason]}`).join(", ");
  // A set belongs to one store: its relevant ids are that store's memory ids.
  const stores = [...new Set(selected.map((item) => item.store))];
  const store = stores.length === 1 ? stores[0]! : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || draft.items.length === 0 || !store) return;
    setState({ kind: "saving" });
    try {
      const created = await createDataset.mutateAsync({ name: trimmed, store, items: draft.items, origin: "history" });
      setState({ kind: "done", id: created.id, count: created.count });
    } catch (error) {
      setState({ kind: "error", message: errorMessage(error) });
    }
  };

  return (
    <form className={styles.createSet} onSubmit={submit} data-testid="create-set">
      <p className={styles.createSetNote}>
        <strong>{selected.length} selected</strong> → {draft.items.length} {draft.items.length === 1 ? "item" : "items"} (query
        and the memories labeled relevant; none when nothing relevant was present)
        {skippedText ? `; skipped: ${skippedText}` : ""}
        {store ? `, a set of store ${store}.` : "."}
      </p>
      {store ? null : (
        <p className={styles.createSetNote} role="note" data-testid="create-set-stores">
          The selected recalls come from {stores.length} stores ({stores.join(", ")}); a set belongs to one store, so select
          recalls of one store to create it.
        </p>
      )}
      <TextField
        id={nameId}
        label="Set name"
        className={styles.createSetName}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
        required
        placeholder="e.g. triage labels, week 48"
      />
      <Button
        type="submit"
        variant="primary"
        disabled={draft.items.length === 0 || name.trim() === "" || state.kind === "saving" || !store}
        data-testid="create-set-submit"
      >
        {state.kind === "saving" ? "Creating…" : "Create set"}
      </Button>
      {selected.length === 2 ? (
        <Link className={buttonClassName()} href={compareHref(selected[0]!, selected[1]!)} data-testid="compare-selected">
          Compare these two
        </Link>
      ) : null}
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      {state.kind === "done" ? (
        <p className={styles.createSetNote} role="status" data-testid="create-set-done">
          Created a set of {state.count} {state.count === 1 ? "item" : "items"}. <Link href="/evaluate">Open Evaluate</Link>
        </p>
      ) : state.kind === "error" ? (
        <p className={styles.createSetNote} role="alert">
          Could not create the set: {state.message}
        </p>
      ) : null}
    </form>
  );
}

/** The comparison page for two recalls, the older one as A (so B reads as "what changed since"). */
export function compareHref(x: HistoryItem, y: HistoryItem): string {
  const [a, b] = x.created_at <= y.created_at ? [x, y] : [y, x];
  return `/recalls/compare?a=${encodeURIComponent(a.id)}&b=${encodeURIComponent(b.id)}`;
}
