"use client";

import Link from "next/link";
import { LevelBadge } from "@/components/recall/level-badge";
import { EmptyState } from "@/components/ui/states";
import { DataTable, numericCellClassName } from "@/components/ui/table";
import { filtersObject } from "@/lib/calibration/what-if-params";
import styles from "./profiles.module.css";
import type { WhatIfResult } from "./use-what-if-run";

const LEVELS = ["high", "moderate", "low", "none"] as const;

/**
 * The level mix logged vs recomputed, the flip matrix and the recalls that flip, each opening its
 * recall page; the whole filtered set opens in History. `label` names the rules it was computed
 * under (the profile and its edits).
 */
export function WhatIfResultView({
  result,
  label,
  filters,
  stale,
}: {
  result: WhatIfResult;
  label: string;
  filters: string;
  /** A newer what-if is computing: this one is shown until it answers. */
  stale: boolean;
}) {
  const historyHref = `/recalls${Object.keys(filtersObject(filters)).length ? `?${new URLSearchParams(filtersObject(filters))}` : ""}`;
  if (result.total === 0) {
    return (
      <section className="panel" data-testid="whatif-result">
        <EmptyState title="No logged recall matches these filters.">
          <p className={styles.muted}>
            Nothing to recompute: widen the History filters, or run some recalls in the console first.
          </p>
        </EmptyState>
      </section>
    );
  }
  return (
    <section
      className="panel"
      aria-labelledby="whatif-result"
      data-testid="whatif-result"
      aria-busy={stale || undefined}
      data-stale={stale || undefined}
    >
      <h2 id="whatif-result">Under {label}</h2>
      <p className={styles.muted}>
        {result.total.toLocaleString()} recalls{result.cancelled ? " (cancelled part-way)" : ""}:{" "}
        {result.from_pool.toLocaleString()} recomputed from the stored pool, {result.from_stated.toLocaleString()} from the stated
        top score and prominence. <span data-testid="flip-count">{result.flip_count.toLocaleString()}</span> change level.{" "}
        <Link href={historyHref}>Open these recalls in History</Link>
        {stale ? " · recomputing with the new values…" : ""}
      </p>
      <DataTable aria-label="Level mix before and after" data-testid="level-mix">
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col" className={numericCellClassName}>
              logged (the store&apos;s verdict)
            </th>
            <th scope="col" className={numericCellClassName}>
              recomputed
            </th>
          </tr>
        </thead>
        <tbody>
          {LEVELS.map((l) => (
            <tr key={l} data-testid={`mix-${l}`}>
              <th scope="row">{l}</th>
              <td className={numericCellClassName}>{result.before[l].toLocaleString()}</td>
              <td className={numericCellClassName}>{result.after[l].toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      <DataTable aria-label="Flip matrix" data-testid="flip-matrix">
        <caption className={styles.muted}>
          Rows: the level logged (the store&apos;s verdict then, else the reference rules); columns: the level recomputed.
        </caption>
        <thead>
          <tr>
            <th scope="col">from \ to</th>
            {LEVELS.map((l) => (
              <th scope="col" key={l} className={numericCellClassName}>
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {LEVELS.map((from) => (
            <tr key={from}>
              <th scope="row">{from}</th>
              {LEVELS.map((to) => (
                <td key={to} className={numericCellClassName}>
                  {result.flip_matrix[from][to].toLocaleString()}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </DataTable>
      <h3>
        Recalls that flip{result.truncated ? ` (first ${result.flips.length.toLocaleString()}, verdict changes first)` : ""}
      </h3>
      {result.flips.length === 0 ? (
        <p className={styles.muted}>None: every level stays the same.</p>
      ) : (
        <ul data-testid="flips" className={styles.flips}>
          {result.flips.map((f) => (
            <li key={f.recall_id}>
              <Link href={`/recalls/${f.recall_id}`} data-testid="flip-link" data-recall-id={f.recall_id}>
                {f.query ? (
                  <span data-testid="flip-query">“{f.query}”</span>
                ) : (
                  <span className="mono">{f.recall_id.slice(0, 8)}</span>
                )}
              </Link>{" "}
              {f.label ? (
                <span className={styles.muted}>
                  (labeled {f.label === "yes" ? "present" : f.label === "no" ? "absent" : f.label}){" "}
                </span>
              ) : null}
              <LevelBadge level={f.before} /> → <LevelBadge level={f.after} />
              {f.verdict_changed ? " (verdict changes)" : ""}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
