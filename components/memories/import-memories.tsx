"use client";

import { useId, useState, type ChangeEvent, type FormEvent, type RefObject } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field as FormField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useImportMemories, type ImportOutcome } from "@/lib/queries/use-memories";
import { MEMORY_LIMITS } from "@/lib/stores/memory-schemas";
import { FormHead } from "./form-head";
import { MAX_IMPORT_BYTES, prepareImport, rejectedRows, type ItemProblem, type PreparedImport } from "./import-file";
import styles from "./memories.module.css";

/** How many rejected items are listed; the counts above always cover all of them. */
const REJECTED_SHOWN = 200;

type Ready = Extract<PreparedImport, { ok: true }> & { fileName: string };

function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} bytes`;
}

function memoriesWord(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "memory" : "memories"}`;
}

/** "batch.jsonl: 4 memories ready to import into store a, 1 line with errors." */
function previewLine(ready: Ready, readyCount: number, store: string): string {
  const broken = ready.problems.length;
  const unit = ready.format === "jsonl" ? (broken === 1 ? "line" : "lines") : broken === 1 ? "item" : "items";
  const errors = broken > 0 ? `, ${broken.toLocaleString("en-US")} ${unit} with errors` : "";
  const into = store ? ` into store ${store}` : "";
  return `${ready.fileName}: ${memoriesWord(readyCount)} ready to import${into}${errors}.`;
}

/** Problems placed in the file (Line 7, Item 3), the first REJECTED_SHOWN of them. */
function ProblemList({ rows, label, hint }: { rows: readonly ItemProblem[]; label: string; hint: string }) {
  return (
    <>
      <p className={styles.hint}>{hint}</p>
      <ul className={styles.problems} aria-label={label}>
        {rows.slice(0, REJECTED_SHOWN).map((row) => (
          <li key={row.position}>
            <span className={styles.position}>{row.position}</span>: {row.messages.join("; ")}
          </li>
        ))}
      </ul>
      {rows.length > REJECTED_SHOWN ? (
        <p className={styles.hint}>…and {(rows.length - REJECTED_SHOWN).toLocaleString("en-US")} more.</p>
      ) : null}
    </>
  );
}

export function ImportMemories({
  store,
  fileRef,
  onClose,
}: {
  /** The store it writes into, the one chosen in the switcher ("" for the default store). */
  store: string;
  fileRef: RefObject<HTMLInputElement | null>;
  onClose: () => void;
}) {
  const id = useId();
  const importing = useImportMemories(store);
  const [inputKey, setInputKey] = useState(0);
  const [ready, setReady] = useState<Ready | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ fileName: string; result: ImportOutcome; positions: string[] } | null>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setReady(null);
    setProblem(null);
    setOutcome(null);
    importing.reset();
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      setProblem(
        `${file.name} is ${formatBytes(file.size)}; the server takes at most ${formatBytes(MAX_IMPORT_BYTES)} in one import. Split it into smaller files.`,
      );
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setProblem(`Could not read ${file.name}: ${errorMessage(error)}`);
      return;
    }
    const prepared = prepareImport(file.name, text);
    if (prepared.ok) setReady({ ...prepared, fileName: file.name });
    else setProblem(prepared.message);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) {
      setProblem("Choose a file first.");
      fileRef.current?.focus();
      return;
    }
    setProblem(null);
    try {
      const result = await importing.mutateAsync(ready.body);
      setOutcome({ fileName: ready.fileName, result, positions: ready.positions });
      setReady(null);
      setInputKey((k) => k + 1); // the same file can be chosen again after fixing it
    } catch (error) {
      setProblem(`The import failed and nothing was added: ${errorMessage(error)}`);
    }
  };

  const rejected = outcome ? rejectedRows(outcome.result.results, outcome.positions) : [];
  const readyCount = ready ? ready.count - ready.problems.length : 0;

  return (
    <form className={styles.importForm} onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <FormHead title={store ? `Import a file into store ${store}` : "Import a file"} titleId={`${id}-title`} onClose={onClose} />

      <FormField
        id={`${id}-file`}
        label="File (.json, .jsonl or .ndjson)"
        hint={
          <>
            JSON: <code>{'{"memories": [...]}'}</code> or a bare list. JSON Lines: one memory a line. Each memory takes{" "}
            <code>summary</code> (required), <code>content</code>, <code>type</code>, <code>tags</code>, <code>importance</code>{" "}
            (0–1), <code>id</code> and <code>created_at</code>. Up to {MEMORY_LIMITS.batch.toLocaleString("en-US")} memories and{" "}
            {formatBytes(MAX_IMPORT_BYTES)} a file; valid items are added even when others are rejected.
          </>
        }
      >
        <input
          className={styles.fileInput}
          key={inputKey}
          id={`${id}-file`}
          ref={fileRef}
          type="file"
          accept=".json,.jsonl,.ndjson,application/json,application/x-ndjson"
          onChange={onFile}
          aria-describedby={`${id}-file-hint`}
        />
      </FormField>

      {problem ? <Notice tone="error">{problem}</Notice> : null}

      <div className={styles.formActions}>
        <Button type="submit" variant="primary" disabled={!ready || readyCount === 0 || importing.isPending}>
          {importing.isPending ? "Importing…" : "Import"}
        </Button>
        <p className={styles.formStatus} role="status" data-testid="import-preview">
          {ready && !importing.isPending ? previewLine(ready, readyCount, store) : null}
          {importing.isPending && ready
            ? `Importing ${memoriesWord(readyCount)}${store ? ` into store ${store}` : ""}; embedding a large file takes a while.`
            : null}
        </p>
      </div>

      {ready && ready.problems.length > 0 && !importing.isPending ? (
        <ProblemList
          rows={ready.problems}
          label="Items that will be rejected"
          hint={
            readyCount > 0
              ? "These will be rejected; the rest are imported. Fix them now, or import and fix them afterwards."
              : "Nothing in this file can be imported yet: fix these and choose it again."
          }
        />
      ) : null}

      {outcome ? (
        <section className={styles.outcome} aria-labelledby={`${id}-outcome`}>
          <h3 id={`${id}-outcome`} className={styles.outcomeTitle}>
            {outcome.fileName}
          </h3>
          <p className={styles.counts} role="status">
            <Badge tone="success">{outcome.result.created.toLocaleString("en-US")} created</Badge>
            <Badge tone={outcome.result.rejected > 0 ? "danger" : "neutral"}>
              {outcome.result.rejected.toLocaleString("en-US")} rejected
            </Badge>
          </p>
          {rejected.length > 0 ? (
            <>
              <p className={styles.hint}>
                Fix these and import them again; the created ones are already in {store ? `store ${store}` : "the store"}.
              </p>
              <ul className={styles.problems} aria-label="Rejected items">
                {rejected.slice(0, REJECTED_SHOWN).map((row) => (
                  <li key={row.position}>
                    <span className={styles.position}>{row.position}</span>
                    {row.id ? (
                      <>
                        {" "}
                        <code>{row.id}</code>
                      </>
                    ) : null}
                    :{" "}
                    {row.messages.map((m, i) => (
                      <span key={i}>
                        {m.field && !m.message.startsWith(m.field) ? (
                          <>
                            <code>{m.field}</code>{" "}
                          </>
                        ) : null}
                        {m.message}
                        {i < row.messages.length - 1 ? "; " : null}
                      </span>
                    ))}
                  </li>
                ))}
              </ul>
              {rejected.length > REJECTED_SHOWN ? (
                <p className={styles.hint}>
                  …and {(rejected.length - REJECTED_SHOWN).toLocaleString("en-US")} more rejected items.
                </p>
              ) : null}
            </>
          ) : null}
        </section>
      ) : null}
    </form>
  );
}
