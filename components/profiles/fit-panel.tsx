"use client";

import { useState, type FormEvent } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, TextField } from "@/components/ui/field";
import { NamedLabel } from "@/components/ui/named-label";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { DataTable, numericCellClassName } from "@/components/ui/table";
import { cutBinLabel, topHistogram } from "@/lib/calibration/chart";
import type { LevelConfusion } from "@/lib/calibration/metrics";
import { filtersObject } from "@/lib/calibration/what-if-params";
import { useFitProfile, type FitResponse } from "@/lib/queries/use-profiles";
import { ConstantsTable } from "./profiles-view";
import styles from "./profiles.module.css";

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(3));

/** Fit a profile from an evaluation run or from labeled recalls (History filters), and show it before saving. */
export function FitPanel() {
  const fit = useFitProfile();
  const [from, setFrom] = useState<"run" | "recalls">("recalls");
  const [runId, setRunId] = useState("");
  const [filters, setFilters] = useState("");
  const [name, setName] = useState("");
  function body(save: boolean) {
    const base = from === "run" ? { run_id: runId.trim() } : { recall_filters: filtersObject(filters) };
    return save && name.trim() ? { ...base, name: name.trim() } : base;
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    fit.mutate(body(false));
  }
  return (
    <section className="panel" aria-labelledby="fit-title">
      <h2 id="fit-title">Fit a profile from labels</h2>
      <p className={styles.muted}>
        Searches the cosine guard, a prominence threshold and the pool size for the best balanced triage accuracy (worth reading
        vs go external against present vs absent), with 5-fold cross-validation; near-misses are reported apart.
      </p>
      <form onSubmit={submit} className={styles.form} aria-label="Fit form">
        <Field id="fit-from" label="Labels from">
          <select
            id="fit-from"
            className={controlClassName}
            value={from}
            onChange={(e) => setFrom(e.target.value as "run" | "recalls")}
          >
            <option value="recalls">labeled recalls, filtered as in History</option>
            <option value="run">an evaluation run</option>
          </select>
        </Field>
        {from === "run" ? (
          <TextField
            id="fit-run"
            label="Run id"
            hint="the run's id, from the Evaluate page"
            value={runId}
            onChange={(e) => setRunId(e.target.value)}
            placeholder="uuid"
          />
        ) : (
          <TextField
            id="fit-filters"
            label={<NamedLabel name="recall_filters">Which recalls</NamedLabel>}
            hint="History's filters as in its link (the part after “?”), e.g. store=embedded; empty = every labeled recall"
            value={filters}
            onChange={(e) => setFilters(e.target.value)}
            placeholder="store=embedded"
          />
        )}
        <Button type="submit" variant="primary" disabled={fit.isPending}>
          {fit.isPending ? "Fitting…" : "Fit"}
        </Button>
      </form>
      {fit.error ? <ErrorState error={fit.error} title="The fit did not run." /> : null}
      {fit.data ? (
        <FitReport result={fit.data}>
          <form
            className={styles.row}
            onSubmit={(e) => {
              e.preventDefault();
              fit.mutate(body(true));
            }}
          >
            <TextField
              id="fit-name"
              label="Save as"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="my-profile"
              required
            />
            <Button type="submit" disabled={fit.isPending}>
              Save fitted profile
            </Button>
            {fit.data.saved ? <span role="status">Saved {fit.data.saved.name}.</span> : null}
          </form>
        </FitReport>
      ) : null}
    </section>
  );
}

function Confusion({ m, label }: { m: LevelConfusion; label: string }) {
  return (
    <DataTable aria-label={`${label} confusion matrix`}>
      <thead>
        <tr>
          <th scope="col">{label}</th>
          <th scope="col" className={numericCellClassName}>
            present
          </th>
          <th scope="col" className={numericCellClassName}>
            absent
          </th>
        </tr>
      </thead>
      <tbody>
        {(["high", "moderate", "low", "none"] as const).map((l) => (
          <tr key={l}>
            <th scope="row">{l}</th>
            <td className={numericCellClassName}>{m[l].present}</td>
            <td className={numericCellClassName}>{m[l].absent}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** The store's verdict model fitted on the same labels: what it was fitted on, its cross-validated figures, its warnings. */
function VerdictFitLine({ verdict }: { verdict: FitResponse["verdict"] | undefined }) {
  if (!verdict) return null;
  const e = verdict.model.estimate;
  return (
    <p data-testid="fit-verdict">
      The store&apos;s verdict model, fitted on <strong>{verdict.basis}</strong>
      {e
        ? `: balanced accuracy ${f3(e.balanced_accuracy)}, AUC ${f3(e.auc)}, Brier ${f3(e.brier)}, ECE ${f3(e.ece)} cross-validated.`
        : "."}
      {verdict.warning ? <strong> {verdict.warning}</strong> : null}
      {verdict.prior_note ? <span className={styles.muted}> {verdict.prior_note}</span> : null}
    </p>
  );
}

function FitReport({ result, children }: { result: FitResponse; children: React.ReactNode }) {
  const bins = topHistogram(result.points);
  const cut = cutBinLabel(bins, result.thresholds.abs_low_cosine);
  return (
    <div data-testid="fit-report">
      <p>
        Shape <strong>{result.shape.replaceAll("_", " ")}</strong>, pool {result.pool_size ?? "k"}: balanced accuracy{" "}
        <strong>{f3(result.estimate.balanced_accuracy)}</strong> cross-validated ({result.estimate.folds} folds),{" "}
        {f3(result.estimate.train_balanced_accuracy)} on the training labels; reference constants{" "}
        {f3(result.reference.balanced_accuracy)}. {result.used} labeled recalls used
        {result.skipped ? `, ${result.skipped} without a stored pool skipped` : ""}.
      </p>
      <div className={styles.chart} aria-label="Top cosine of present and absent recalls, with the fitted cut">
        {bins.length === 0 ? (
          <EmptyState title="No semantic signal to draw.">
            <p className={styles.muted}>These recalls have no raw cosines (keyword-only pools), so there is no cut to show.</p>
          </EmptyState>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={bins}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" label={{ value: "top raw cosine", position: "insideBottom", offset: -2 }} />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar dataKey="present" fill="#2f7d4a" />
              <Bar dataKey="absent" fill="#b04a3a" />
              {cut ? (
                <ReferenceLine x={cut} stroke="#222" strokeDasharray="4 2" label={`cut ${result.thresholds.abs_low_cosine}`} />
              ) : null}
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
      <div className={styles.row} style={{ alignItems: "flex-start" }}>
        <Confusion m={result.confusion} label="fitted" />
        <Confusion m={result.reference.confusion} label="reference" />
      </div>
      {Object.keys(result.by_kind).length ? (
        <p className={styles.muted}>
          By kind:{" "}
          {Object.entries(result.by_kind)
            .map(([k, r]) => `${k} (${r.count}): fitted ${f3(r.fitted_accuracy)}, reference ${f3(r.reference_accuracy)}`)
            .join("; ")}
        </p>
      ) : null}
      <VerdictFitLine verdict={result.verdict} />
      <ConstantsTable thresholds={result.thresholds} poolSize={result.pool_size} label="fitted" />
      {children}
    </div>
  );
}
