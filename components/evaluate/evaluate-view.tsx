"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { defaultStoreName } from "@/components/filters/store-label";
import { buttonClassName } from "@/components/ui/button";
import { controlClassName, Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { pageStackClassName, panelClassName, panelColumnClassName } from "@/components/ui/panel";
import { ApiErrorText } from "@/components/ui/states";
import { numericCellClassName } from "@/components/ui/table";
import { baselineFirst } from "@/lib/charts/compare-order";
import { describeItemError, type DatasetItemError } from "@/lib/eval/dataset-schemas";
import { ApiRequestError } from "@/lib/queries/fetch-json";
import { useCreateDataset, useDatasets, useEvalRuns } from "@/lib/queries/use-eval";
import { useStores } from "@/lib/queries/use-recall";
import { EvaluateTable } from "./evaluate-table";
import styles from "./evaluate.module.css";
import { RunStatus, settingsText } from "./run-status";
import { StartRunPanel } from "./start-run-panel";

/**
 * The Evaluate page: the labeled query sets (with an upload), a form that starts a run, and the
 * runs, two of which can be compared. Runs poll while they are queued or running.
 */
export function EvaluateView() {
  // The store runs are started on and uploads go to: "" until chosen, the default store.
  const stores = useStores();
  const [chosenStore, setChosenStore] = useState("");
  const store = chosenStore || defaultStoreName(stores.data);
  return (
    <div className={pageStackClassName}>
      <StartRunPanel store={store} onStore={setChosenStore} />
      <RunsPanel />
      <DatasetsPanel store={store} />
    </div>
  );
}

function RunsPanel() {
  const runs = useEvalRuns();
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  // The older of the two picked is A (the baseline) whatever order they were ticked in.
  const pair = picked.map((id) => runs.data?.runs.find((r) => r.id === id)).filter((r) => r !== undefined);
  const [baseline, change] = pair.length === 2 ? baselineFirst(pair[0]!, pair[1]!, (r) => r.created_at) : [];
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="runs-h">
      <div className={styles.row} style={{ justifyContent: "space-between" }}>
        <h2 id="runs-h">Runs</h2>
        {baseline && change ? (
          <Link
            className={buttonClassName()}
            href={`/evaluate/compare?a=${baseline.id}&b=${change.id}`}
            data-testid="compare-link"
          >
            Compare the two selected runs
          </Link>
        ) : (
          <span className={styles.hint}>Select two runs over the same set to compare them.</span>
        )}
      </div>
      {runs.isPending ? (
        <p role="status">Loading runs…</p>
      ) : runs.isError ? (
        <Notice tone="error">
          Could not load the runs: <ApiErrorText error={runs.error} />
        </Notice>
      ) : runs.data.runs.length === 0 ? (
        <p className={styles.muted}>No run yet. Start one above: the demo set runs in about a minute.</p>
      ) : (
        <EvaluateTable data-testid="runs-table" columns={["Compare", "Run", "Set", "Settings", "Status"]}>
          <tbody>
            {runs.data.runs.map((run) => (
              <tr key={run.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Compare run ${run.id.slice(0, 8)}`}
                    checked={picked.includes(run.id)}
                    onChange={() => toggle(run.id)}
                  />
                </td>
                <td>
                  <Link href={`/evaluate/runs/${run.id}`}>{new Date(run.created_at).toLocaleString()}</Link>
                </td>
                <td>{run.dataset.name}</td>
                <td className={styles.small}>{settingsText(run.settings)}</td>
                <td>
                  <RunStatus run={run} />
                </td>
              </tr>
            ))}
          </tbody>
        </EvaluateTable>
      )}
    </section>
  );
}

function DatasetsPanel({ store }: { store: string }) {
  const sets = useDatasets();
  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="sets-h">
      <h2 id="sets-h">Labeled sets</h2>
      {sets.isPending ? (
        <p role="status">Loading sets…</p>
      ) : sets.isError ? (
        <Notice tone="error">
          Could not load the sets: <ApiErrorText error={sets.error} />
        </Notice>
      ) : sets.data.datasets.length === 0 ? (
        <p className={styles.muted}>No labeled set yet. Upload one below.</p>
      ) : (
        <EvaluateTable
          data-testid="sets-table"
          columns={[
            "Name",
            "Store",
            "From",
            { label: "Queries", numeric: true },
            { label: "Nothing relevant stored", numeric: true },
            "Kinds",
            "Created",
          ]}
        >
          <tbody>
            {sets.data.datasets.map((s) => (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td>{s.store}</td>
                <td>{s.origin}</td>
                <td className={numericCellClassName}>{s.count}</td>
                <td className={numericCellClassName}>{s.absent}</td>
                <td className={styles.small}>
                  {Object.entries(s.kinds)
                    .map(([kind, n]) => `${kind || "(none)"} ${n}`)
                    .join(", ")}
                </td>
                <td className={styles.small}>{new Date(s.created_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </EvaluateTable>
      )}
      <UploadForm store={store} />
    </section>
  );
}

function UploadForm({ store }: { store: string }) {
  const create = useCreateDataset();
  const id = useId();
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const lineErrors =
    create.error instanceof ApiRequestError ? ((create.error.details.errors as DatasetItemError[] | undefined) ?? []) : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), jsonl: text, ...(store ? { store } : {}) }, { onSuccess: () => setText("") });
  };

  return (
    <form className={`${panelColumnClassName} ${styles.headings}`} onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Upload a set (JSON Lines){store ? ` into store ${store}` : ""}</h3>
      <p className={styles.hint}>
        One item a line: <code>{'{"query": "…", "relevant": ["mem-0001"], "id": "q1", "kind": "near_miss", "tags": []}'}</code>.
        An empty
        <code> relevant</code> says nothing relevant is stored. A bad line refuses the whole upload.
      </p>
      <div className={styles.row}>
        <Field id={`${id}-name`} label="Name">
          <input
            className={controlClassName}
            id={`${id}-name`}
            type="text"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={`${id}-file`} label="File">
          <input
            className={controlClassName}
            id={`${id}-file`}
            type="file"
            accept=".jsonl,.ndjson,.txt,application/x-ndjson"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (file) {
                setText(await file.text());
                if (!name) setName(file.name.replace(/\.[^.]+$/, ""));
              }
            }}
          />
        </Field>
      </div>
      {/* No flex basis here: in the column it would be a height, a blank band above the button. */}
      <Field id={`${id}-text`} label="Items">
        <textarea
          className={controlClassName}
          id={`${id}-text`}
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
        />
      </Field>
      <div className={styles.row}>
        <button
          className={buttonClassName({ variant: "primary" })}
          type="submit"
          disabled={!name.trim() || !text.trim() || create.isPending}
        >
          {create.isPending ? "Uploading…" : "Upload set"}
        </button>
        {create.isSuccess ? (
          <p className={styles.ok} role="status">
            Stored {create.data.count} queries.
          </p>
        ) : null}
      </div>
      {create.isError ? (
        <Notice tone="error">
          {lineErrors.length ? (
            <>
              Nothing was stored; fix these lines:
              <ul>
                {lineErrors.slice(0, 20).map((e) => (
                  <li key={`${e.line}-${e.index}`}>{describeItemError(e)}</li>
                ))}
              </ul>
              {lineErrors.length > 20 ? `and ${lineErrors.length - 20} more.` : null}
            </>
          ) : (
            <ApiErrorText error={create.error} />
          )}
        </Notice>
      ) : null}
    </form>
  );
}
