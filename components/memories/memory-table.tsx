"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable, numericCellClassName, type DataTableColumn } from "@/components/ui/table";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useDeleteMemory } from "@/lib/queries/use-memories";
import { memoryPageHref } from "@/lib/queries/use-memory-page";
import type { MemoryView } from "@/lib/stores/memory-schemas";
import styles from "./memory-table.module.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function short(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

interface RowProps {
  memory: MemoryView;
  /** The store it is in ("" for the default store): ids are unique per store. */
  store: string;
  activeTag: string;
  onTag: (tag: string) => void;
  /** Called once the memory is gone (its row unmounts then, so focus has to go somewhere). */
  onDeleted: (memory: MemoryView) => void;
}

/** An empty cell's dash, named for screen readers ("No tags") when a label is given. */
function Dash({ label }: { label?: string }) {
  return (
    <span className={styles.muted} aria-label={label}>
      —
    </span>
  );
}

function CreatedCell({ memory }: { memory: MemoryView }) {
  const created = new Date(memory.created_at);
  return (
    <td className={styles.nowrap} data-caption="created">
      {memory.created_at ? (
        <time dateTime={memory.created_at} title={memory.created_at}>
          {Number.isNaN(created.getTime()) ? memory.created_at : dateFormat.format(created)}
        </time>
      ) : (
        <Dash label="Unknown" />
      )}
    </td>
  );
}

/** Importance, created and id: the last cells of every row, the service's list or the embedded store's. */
function TailCells({ memory }: { memory: MemoryView }) {
  return (
    <>
      <td className={numericCellClassName} data-caption="importance">
        {memory.importance.toFixed(2)}
      </td>
      <CreatedCell memory={memory} />
      <IdCell memory={memory} />
    </>
  );
}

function IdCell({ memory }: { memory: MemoryView }) {
  return (
    <td>
      <div className={styles.memoryId}>
        <code className={styles.idText} title={memory.id}>
          {memory.id}
        </code>
        <CopyButton value={memory.id} />
      </div>
    </td>
  );
}

/**
 * A remote store's memory: what its list endpoint returns (no content, no tags), with the
 * service's scope, and no actions (the service manages its memories).
 */
function RemoteMemoryRow({ memory }: { memory: MemoryView }) {
  return (
    <tr>
      <td className={styles.summary}>
        <span>{memory.summary}</span>
      </td>
      <td>{memory.type ? <Badge>{memory.type}</Badge> : <Dash label="No type" />}</td>
      <td>
        {memory.scope ? (
          <Badge className={memory.scope === "working" ? styles.scopeWorking : undefined}>{memory.scope}</Badge>
        ) : (
          <Dash />
        )}
      </td>
      <TailCells memory={memory} />
    </tr>
  );
}

function MemoryRow({ memory, store, activeTag, onTag, onDeleted }: RowProps) {
  const remove = useDeleteMemory(store);
  const [confirming, setConfirming] = useState(false);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      deleteRef.current?.focus();
    }
  }, [confirming]);

  const cancel = () => {
    returnFocus.current = true;
    remove.reset();
    setConfirming(false);
  };
  const onConfirmKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && !remove.isPending) {
      event.preventDefault();
      cancel();
    }
  };
  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(memory.id);
      onDeleted(memory);
    } catch {
      // Shown in the row by remove.isError.
    }
  };
  return (
    <tr aria-busy={remove.isPending || undefined} data-testid="memory-row">
      <td className={styles.summary}>
        {/* The memory page: its recalls and neighbours. */}
        <Link href={memoryPageHref(memory.id, store)} className={styles.link} prefetch={false}>
          {memory.summary}
        </Link>
        {memory.content ? (
          <span className={styles.content} title={memory.content}>
            {memory.content}
          </span>
        ) : null}
      </td>
      <td>
        <Badge>{memory.type}</Badge>
      </td>
      <td>
        {memory.tags.length > 0 ? (
          <ul className={styles.tagList} aria-label="Tags">
            {memory.tags.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  className={styles.tagChip}
                  aria-pressed={tag === activeTag}
                  title={tag === activeTag ? "Showing this tag; click to show all" : `Show memories tagged ${tag}`}
                  onClick={() => onTag(tag === activeTag ? "" : tag)}
                >
                  {tag}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <Dash label="No tags" />
        )}
      </td>
      <TailCells memory={memory} />
      <td className={styles.actions}>
        {confirming ? (
          <div
            className={styles.confirm}
            role="group"
            aria-label={`Confirm deleting “${short(memory.summary)}”`}
            onKeyDown={onConfirmKey}
          >
            <span className={styles.confirmQuestion}>Delete for good?</span>
            <Button size="small" variant="danger" disabled={remove.isPending} onClick={confirmDelete}>
              {remove.isPending ? "Deleting…" : "Yes, delete"}
            </Button>
            <Button ref={cancelRef} size="small" disabled={remove.isPending} onClick={cancel}>
              Cancel
            </Button>
            {remove.isError ? (
              <p className={styles.rowError} role="alert">
                {errorMessage(remove.error)}
              </p>
            ) : null}
          </div>
        ) : (
          <Button
            ref={deleteRef}
            size="small"
            variant="danger"
            aria-label={`Delete “${short(memory.summary)}”`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        )}
      </td>
    </tr>
  );
}

/** A remote store's memories, read-only, in the order the service lists them. */
export function RemoteMemoryTable({
  memories,
  storeLabel,
  busy,
}: {
  memories: readonly MemoryView[];
  storeLabel: string;
  busy: boolean;
}) {
  return (
    <DataTable
      className={styles.table}
      busy={busy}
      alignTop
      caption={`Memories of ${storeLabel}, as the service lists them`}
      captionHidden
      columns={["Summary", "Type", "Scope", IMPORTANCE, "Created", "ID"]}
    >
      <tbody>
        {memories.map((memory) => (
          <RemoteMemoryRow key={memory.id} memory={memory} />
        ))}
      </tbody>
    </DataTable>
  );
}

const IMPORTANCE: DataTableColumn = { label: "Importance", numeric: true };

export function MemoryTable({
  memories,
  store,
  activeTag,
  onTag,
  onDeleted,
  busy,
}: Omit<RowProps, "memory"> & { memories: readonly MemoryView[]; busy: boolean }) {
  return (
    <DataTable
      className={styles.table}
      busy={busy}
      alignTop
      caption="Memories, newest first"
      captionHidden
      columns={["Summary", "Type", "Tags", IMPORTANCE, "Created", "ID", { label: "Actions", hidden: true }]}
    >
      <tbody>
        {memories.map((memory) => (
          <MemoryRow key={memory.id} memory={memory} store={store} activeTag={activeTag} onTag={onTag} onDeleted={onDeleted} />
        ))}
      </tbody>
    </DataTable>
  );
}
