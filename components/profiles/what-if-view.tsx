"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import type { WhatIfSummary } from "@/lib/calibration/what-if";
import { LevelBadge } from "@/components/recall/level-badge";
import { useProfiles } from "@/lib/queries/use-profiles";
import styles from "./profiles.module.css";

const LEVELS = ["high", "moderate", "low", "none"] as const;

type Result = WhatIfSummary & { cancelled: boolean };

/**
 * What-if over history: every logged recall matching a History filter, its level recomputed
 * under a profile (from its stored pool, or from its stated values), streamed with progress and
 * cancellable. The filters and profile live in the URL, so a what-if can be shared.
 */
export function WhatIfView() {
  const params = useSearchParams();
  const profiles = useProfiles();
  const [profile, setProfile] = useState(params.get("profile") ?? "use-lite");
  const [pool, setPool] = useState("");
  const [filters, setFilters] = useState(params.get("filters") ?? "");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);

  async function run(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setResult(null);
    setProgress(null);
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    try {
      const body = {
        profile,
        ...(pool.trim() ? { pool_size: Number(pool) } : {}),
        filters: Object.fromEntries(new URLSearchParams(filters.replace(/^\?/, ""))),
      };
      const response = await fetch("/api/what-if", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const envelope = await response.json().catch(() => null);
        throw new Error(envelope?.message ?? `The server answered ${response.status}.`);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const event = JSON.parse(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (event.type === "start") setProgress({ done: 0, total: event.total });
          else if (event.type === "progress") setProgress({ done: event.done, total: event.total });
          else if (event.type === "result") setResult(event);
          else if (event.type === "error") throw new Error(event.message);
        }
      }
    } catch (e) {
      if (controller.signal.aborted) setError("Cancelled.");
      else setError(e instanceof Error ? e.message : "The what-if failed.");
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className={styles.grid}>
      <section className="panel" aria-labelledby="whatif-form">
        <h2 id="whatif-form">Recompute levels</h2>
        <form className={styles.form} onSubmit={run} aria-label="What-if form">
          <label>
            Profile
            <select value={profile} onChange={(e) => setProfile(e.target.value)} aria-label="Profile">
              {(profiles.data ?? [{ name: profile }]).map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Pool size override (empty = the profile’s)
            <input value={pool} inputMode="numeric" onChange={(e) => setPool(e.target.value)} />
          </label>
          <label>
            History filters (query string)
            <input value={filters} onChange={(e) => setFilters(e.target.value)} placeholder="store=embedded&from=2026-11-01" />
          </label>
          <div className={styles.row}>
            <button type="submit" disabled={running}>
              Run what-if
            </button>
            <button type="button" disabled={!running} onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          </div>
        </form>
        {progress ? (
          <p role="status" data-testid="whatif-progress">
            <progress className={styles.progress} value={progress.done} max={Math.max(1, progress.total)} />{" "}
            {progress.done.toLocaleString()} of {progress.total.toLocaleString()} recalls
          </p>
        ) : null}
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
      </section>
      {result ? <WhatIfResult result={result} profile={profile} /> : null}
    </div>
  );
}

function WhatIfResult({ result, profile }: { result: Result; profile: string }) {
  if (result.total === 0) {
    return (
      <section className="panel">
        <p>No logged recall matches these filters, so there is nothing to recompute.</p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="whatif-result" data-testid="whatif-result">
      <h2 id="whatif-result">Under {profile}</h2>
      <p className={styles.muted}>
        {result.total.toLocaleString()} recalls{result.cancelled ? " (cancelled part-way)" : ""}:{" "}
        {result.from_pool.toLocaleString()} recomputed from the stored pool, {result.from_stated.toLocaleString()} from the stated
        top score and prominence. {result.flip_count.toLocaleString()} change level.
      </p>
      <table className={styles.table} aria-label="Level mix before and after">
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col" className={styles.num}>
              logged (reference)
            </th>
            <th scope="col" className={styles.num}>
              under {profile}
            </th>
          </tr>
        </thead>
        <tbody>
          {LEVELS.map((l) => (
            <tr key={l}>
              <th scope="row">{l}</th>
              <td className={styles.num}>{result.before[l]}</td>
              <td className={styles.num}>{result.after[l]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className={styles.table} aria-label="Flip matrix" data-testid="flip-matrix">
        <caption className={styles.muted}>Rows: logged level; columns: level under {profile}.</caption>
        <thead>
          <tr>
            <th scope="col">from \ to</th>
            {LEVELS.map((l) => (
              <th scope="col" key={l} className={styles.num}>
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
                <td key={to} className={styles.num}>
                  {result.flip_matrix[from][to]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Recalls that flip{result.truncated ? ` (first ${result.flips.length}, verdict changes first)` : ""}</h3>
      {result.flips.length === 0 ? (
        <p className={styles.muted}>None: every level stays the same.</p>
      ) : (
        <ul data-testid="flips">
          {result.flips.map((f) => (
            <li key={f.recall_id}>
              <Link href={`/recalls/${f.recall_id}`} data-testid="flip-link">
                <span className="mono">{f.recall_id.slice(0, 8)}</span>
              </Link>{" "}
              <LevelBadge level={f.before} /> → <LevelBadge level={f.after} />
              {f.verdict_changed ? " (verdict changes)" : ""}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
