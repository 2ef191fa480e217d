"use client";

import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { PanelHead, panelClassName, panelNoteClassName } from "@/components/ui/panel";
import { shortenId } from "@/lib/format";
import { useRecallLabels } from "@/lib/queries/use-recall-labels";
import {
  cycleResultLabel,
  LABELER_MAX_CHARS,
  labelRows,
  labelShortcut,
  presentWord,
  type LabelRow,
  type LabelsPatch,
  type PresentLabel,
} from "@/lib/recall-log/labels";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./labels-panel.module.css";

const LABELER_KEY = "recall-inspector:labeler";
/** Rows shown before "show all": the page plus a few candidates; the rest one click away. */
const FIRST_ROWS = 12;

const PRESENT_BUTTONS: { value: PresentLabel; text: string; key: string }[] = [
  { value: "yes", text: "Yes", key: "y" },
  { value: "no", text: "No", key: "n" },
  { value: "unsure", text: "Unsure", key: "u" },
];

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable=true]") !== null;
}

/**
 * Relevance labels for one logged recall: was a relevant memory present (yes / no / unsure), and
 * relevant / not relevant per result and candidate, with an optional labeler name the browser
 * remembers. Saved as soon as changed (optimistically); keyboard shortcuts on the whole page while
 * it is shown (y / n / u, 1–9, and r / x / c / arrows in a row), listed in the hint.
 */
export function LabelsPanel({ view }: { view: LoggedRecall }) {
  const titleId = useId();
  const hintId = useId();
  const saver = useRecallLabels(view.id, view.labels);
  const { labels } = saver;
  const rows = labelRows(view);
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  const [labeler, setLabeler] = useState("");
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    try {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only in the browser: read during render, the server's HTML and the first client render would differ (a hydration mismatch)
      setLabeler(window.localStorage.getItem(LABELER_KEY) ?? "");
    } catch {
      // Storage blocked: the name is simply not remembered.
    }
  }, []);

  const onLabeler = (event: ChangeEvent<HTMLInputElement>) => {
    setLabeler(event.target.value);
    try {
      window.localStorage.setItem(LABELER_KEY, event.target.value.trim());
    } catch {
      // As above.
    }
  };

  // The latest values for the document-wide key handler, registered once.
  const latest = useRef({ saver, labels, shown, labeler });
  // eslint-disable-next-line react-hooks/refs -- the document-wide key handler is registered once (below) and must act on this render's labels, rows and name
  latest.current = { saver, labels, shown, labeler };

  const send = (patch: LabelsPatch) => {
    const name = latest.current.labeler.trim();
    latest.current.saver.save(name ? { ...patch, labeler: name } : patch);
  };
  const sendRef = useRef(send);
  // eslint-disable-next-line react-hooks/refs -- the same once-registered key handler calls the newest send (it closes over this render's saver)
  sendRef.current = send;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const rowEl = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>("[data-label-row]") : null;
      const shortcut = labelShortcut(event.key, {
        editable: isEditable(event.target),
        modifier: event.ctrlKey || event.metaKey || event.altKey,
        inRow: rowEl !== null && listRef.current?.contains(rowEl) === true,
      });
      if (!shortcut) return;
      const { labels: current, shown: visible } = latest.current;
      if (shortcut.action === "present") {
        sendRef.current({ present: current.present === shortcut.value ? null : shortcut.value });
      } else if (shortcut.action === "toggle_row") {
        const row = visible[shortcut.index];
        if (!row) return;
        sendRef.current({ results: { [row.memory_id]: cycleResultLabel(current.results[row.memory_id]) } });
      } else if (shortcut.action === "row" && rowEl) {
        const id = rowEl.dataset.memoryId!;
        sendRef.current({ results: { [id]: shortcut.value } });
      } else if (shortcut.action === "move" && rowEl) {
        const all = [...(listRef.current?.querySelectorAll<HTMLElement>("[data-label-row]") ?? [])];
        const next = all[all.indexOf(rowEl) + shortcut.by];
        next?.querySelector<HTMLElement>("button")?.focus();
      } else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const relevantCount = Object.values(labels.results).filter(Boolean).length;
  const notRelevantCount = Object.values(labels.results).filter((v) => !v).length;

  return (
    <section className={panelClassName} aria-labelledby={titleId} aria-describedby={hintId} data-testid="labels-panel">
      <PanelHead
        title="Relevance labels"
        titleId={titleId}
        aside={
          <>
            <p className={panelNoteClassName} role="status" data-testid="labels-status">
              {saver.saving
                ? "Saving…"
                : labels.labeled_at
                  ? `Saved${labels.labeler ? ` by ${labels.labeler}` : ""} · ${relevantCount} relevant, ${notRelevantCount} not relevant`
                  : "Not labeled yet"}
            </p>
          </>
        }
      />

      <div className={styles.presentRow}>
        <span className={styles.question} id={`${titleId}-q`}>
          A relevant memory was present:
        </span>
        <div role="group" aria-labelledby={`${titleId}-q`} className={styles.segmented}>
          {PRESENT_BUTTONS.map((b) => (
            <button
              key={b.value}
              type="button"
              aria-pressed={labels.present === b.value}
              data-present={b.value}
              data-testid={`label-present-${b.value}`}
              onClick={() => send({ present: labels.present === b.value ? null : b.value })}
              aria-keyshortcuts={b.key}
            >
              {b.text} <kbd aria-hidden="true">{b.key}</kbd>
            </button>
          ))}
        </div>
        <span className={styles.presentWord} data-testid="label-present-word">
          {presentWord(labels.present)}
        </span>
      </div>

      {saver.error ? (
        <Notice
          tone="error"
          data-testid="labels-error"
          action={
            <span className={styles.errorActions}>
              <Button size="small" onClick={saver.retry}>
                Retry
              </Button>
              <Button size="small" variant="ghost" onClick={saver.dismiss}>
                Dismiss
              </Button>
            </span>
          }
        >
          {saver.error}
        </Notice>
      ) : null}

      {rows.length === 0 ? (
        <p className={panelNoteClassName}>
          No results or candidates to label; the present label still records what this recall should have found.
        </p>
      ) : (
        <>
          <ol className={styles.rows} ref={listRef} aria-label="Per-memory relevance">
            {shown.map((row, i) => (
              <LabelRowItem
                key={row.memory_id}
                row={row}
                index={i}
                value={labels.results[row.memory_id]}
                onChange={(value) => send({ results: { [row.memory_id]: value } })}
              />
            ))}
          </ol>
          {rows.length > FIRST_ROWS ? (
            <Button variant="ghost" size="small" className={styles.more} onClick={() => setShowAll((v) => !v)}>
              {showAll ? "Show fewer" : `Show all ${rows.length} results and candidates`}
            </Button>
          ) : null}
        </>
      )}

      <div className={styles.foot}>
        <label className={styles.labeler}>
          Labeler (optional)
          <input
            type="text"
            value={labeler}
            onChange={onLabeler}
            maxLength={LABELER_MAX_CHARS}
            placeholder="your name"
            autoComplete="name"
            data-testid="labeler-input"
          />
        </label>
        <p className={styles.hint} id={hintId}>
          Keys: <kbd>y</kbd> <kbd>n</kbd> <kbd>u</kbd> present (again to clear) · <kbd>1</kbd>–<kbd>9</kbd> cycle row N relevant →
          not relevant → unlabeled · in a row: <kbd>r</kbd> relevant, <kbd>x</kbd> not relevant, <kbd>c</kbd> clear, <kbd>↑</kbd>
          <kbd>↓</kbd> move. Not while typing in a field.
        </p>
      </div>
    </section>
  );
}

const KIND_TEXT: Record<LabelRow["kind"], string> = { result: "result", dropped: "dropped by selector", candidate: "candidate" };

function LabelRowItem({
  row,
  index,
  value,
  onChange,
}: {
  row: LabelRow;
  index: number;
  value: boolean | undefined;
  onChange: (value: boolean | null) => void;
}) {
  const state = value === undefined ? "unlabeled" : value ? "relevant" : "not_relevant";
  return (
    <li className={styles.row} data-label-row="" data-memory-id={row.memory_id} data-label={state} data-testid="label-row">
      <span className={styles.index} aria-hidden="true">
        {index < 9 ? index + 1 : ""}
      </span>
      <span className={styles.rowText}>
        <span className={styles.kind}>
          {row.kind === "candidate" ? `rank ${row.position}` : `#${row.position}`} · {KIND_TEXT[row.kind]}
        </span>
        {/* One line, ended by "…": the whole summary (and the id) on hover. */}
        <span className={styles.summary} title={row.summary ? `${row.summary} (${row.memory_id})` : row.memory_id}>
          {row.summary ?? <code>{shortenId(row.memory_id)}</code>}
        </span>
      </span>
      <span className={styles.toggles}>
        <button
          type="button"
          aria-pressed={value === true}
          data-testid="label-relevant"
          onClick={() => onChange(value === true ? null : true)}
        >
          Relevant
        </button>
        <button
          type="button"
          aria-pressed={value === false}
          data-testid="label-not-relevant"
          onClick={() => onChange(value === false ? null : false)}
        >
          Not relevant
        </button>
      </span>
    </li>
  );
}
