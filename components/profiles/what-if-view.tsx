"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, TextField } from "@/components/ui/field";
import { NamedLabel } from "@/components/ui/named-label";
import { Notice } from "@/components/ui/notice";
import { editProfile, type Profile } from "@/lib/calibration/profile";
import {
  describeEdits,
  parseConstant,
  parsePoolSize,
  parseWhatIfParams,
  profileEdits,
  whatIfSearch,
  type WhatIfParams,
} from "@/lib/calibration/what-if-params";
import { useProfiles } from "@/lib/queries/use-profiles";
import { ThresholdsError } from "@/lib/recall/errors";
import type { ThresholdKey } from "@/lib/recall/thresholds";
import styles from "./profiles.module.css";
import { useWhatIfRun } from "./use-what-if-run";
import { ConstantsEditor, type Drafts } from "./what-if-editor";
import { WhatIfResultView } from "./what-if-result";

/** How long typing pauses before a live edit reruns the what-if. */
const LIVE_DELAY_MS = 400;

/** The band-order and range problems of the edited constants, by constant (none when the base is not loaded yet). */
function editErrors(base: Profile | null, params: WhatIfParams): Partial<Record<ThresholdKey | "pool_size", string>> {
  if (!base) return {};
  try {
    editProfile(base, profileEdits(params));
    return {};
  } catch (error) {
    if (!(error instanceof ThresholdsError)) throw error;
    const out: Partial<Record<ThresholdKey | "pool_size", string>> = {};
    for (const issue of error.details.issues) {
      const key = String(issue.path[issue.path.length - 1]) as ThresholdKey;
      out[key] ??= `${issue.message}.`;
    }
    return out;
  }
}

/**
 * What-if over history: every logged recall matching a History filter, its level recomputed
 * under a profile — saved, or with its constants and pool size edited here, unsaved — streamed
 * with progress and cancellable. Once a what-if has run, each edit reruns it (the previous run
 * is cancelled), so the mix and the flips follow the values. The whole state is in the URL
 * (lib/calibration/what-if-params.ts), so an edited what-if can be shared; the page keeps it
 * locally and mirrors it into the URL on every change.
 */
export function WhatIfView() {
  const search = useSearchParams();
  const pathname = usePathname();
  const [opened] = useState(() => parseWhatIfParams(new URLSearchParams(search.toString())));
  const [params, setParams] = useState<WhatIfParams>(opened.params);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [filtersDraft, setFiltersDraft] = useState(opened.params.filters);
  const profiles = useProfiles();
  const { state, start, cancel } = useWhatIfRun();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const initial = useRef(opened.params);

  const baseOf = (name: string) => profiles.data?.find((p) => p.name === name) ?? null;
  const base = baseOf(params.profile);
  const errors = editErrors(base, params);
  const unknownProfile = profiles.isSuccess && !base;
  const live = state.result !== null || state.running;

  // A shared link that had run opens with its result.
  useEffect(() => {
    if (!initial.current.run) return;
    const t = setTimeout(() => void start(initial.current), 0);
    return () => clearTimeout(t);
  }, [start]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  function update(next: WhatIfParams, rerun: "now" | "debounced" | "no") {
    setParams(next);
    // The browser's own history call (Next's router follows it) rather than router.replace: an
    // edit per keystroke should not fetch the page from the server again.
    window.history.replaceState(null, "", `${pathname}?${whatIfSearch(next)}`);
    if (timer.current) clearTimeout(timer.current);
    if (rerun === "no") return;
    // Values the profile would refuse are not sent; their fields say why.
    if (Object.keys(editErrors(baseOf(next.profile), next)).length > 0) return;
    if (rerun === "now") void start(next);
    else timer.current = setTimeout(() => void start(next), LIVE_DELAY_MS);
  }

  function onDraft(key: ThresholdKey | "pool_size", text: string) {
    setDrafts((d) => ({ ...d, [key]: text }));
    const next: WhatIfParams = { ...params, edits: { ...params.edits } };
    if (key === "pool_size") {
      const pool = parsePoolSize(text);
      if (!pool.ok) return;
      if (pool.value === undefined) delete next.pool_size;
      else next.pool_size = pool.value;
    } else if (text.trim() === "") {
      // An emptied field goes back to the profile's value.
      delete next.edits[key];
    } else {
      const value = parseConstant(text);
      if (value === null) return;
      if (base && value === base.thresholds[key]) delete next.edits[key];
      else next.edits[key] = value;
    }
    update(next, live ? "debounced" : "no");
  }

  function onProfile(name: string) {
    setDrafts({});
    const next: WhatIfParams = { profile: name, edits: {}, filters: params.filters, run: params.run };
    update(next, live ? "now" : "no");
  }

  function onReset() {
    setDrafts({});
    const next: WhatIfParams = { ...params, edits: {} };
    delete next.pool_size;
    update(next, live ? "now" : "no");
  }

  function onRun(event: FormEvent) {
    event.preventDefault();
    update({ ...params, filters: filtersDraft.trim(), run: true }, "now");
  }

  const resultFor = state.resultFor;
  const resultLabel = resultFor
    ? `${resultFor.profile}${describeEdits(resultFor, baseOf(resultFor.profile)) ? ` with ${describeEdits(resultFor, baseOf(resultFor.profile))}` : ""}`
    : "";
  const blocked = Object.keys(errors).length > 0;

  return (
    <div className={styles.grid}>
      <section className="panel" aria-labelledby="whatif-form">
        <h2 id="whatif-form">Recompute levels</h2>
        {opened.problems.length > 0 ? (
          <Notice tone="warning" title="Some values in the link were ignored">
            <ul>
              {opened.problems.map((p) => (
                <li key={p.key}>{p.message}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <form className={styles.whatIfForm} onSubmit={onRun} aria-label="What-if form">
          <div className={styles.form}>
            <Field
              id="whatif-profile"
              label="Profile"
              error={unknownProfile ? `There is no profile named “${params.profile}”.` : undefined}
            >
              <select
                id="whatif-profile"
                className={controlClassName}
                value={params.profile}
                onChange={(e) => onProfile(e.target.value)}
              >
                {(profiles.data ?? []).some((p) => p.name === params.profile) ? null : (
                  <option value={params.profile}>{params.profile}</option>
                )}
                {(profiles.data ?? []).map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            <TextField
              id="whatif-filters"
              label={<NamedLabel name="filters">Which recalls</NamedLabel>}
              hint="History’s filters as in its link (the part after “?”), e.g. store=embedded&level=low,none; empty = every logged recall"
              value={filtersDraft}
              onChange={(e) => setFiltersDraft(e.target.value)}
              placeholder="store=embedded&from=2026-11-01"
            />
          </div>
          <ConstantsEditor params={params} base={base} drafts={drafts} errors={errors} onDraft={onDraft} onReset={onReset} />
          <div className={styles.row}>
            <Button type="submit" variant="primary" disabled={blocked || unknownProfile}>
              {state.result ? "Run again" : "Run what-if"}
            </Button>
            <Button onClick={cancel} disabled={!state.running}>
              Cancel
            </Button>
            {blocked ? <span className={styles.muted}>Fix the marked values to run.</span> : null}
          </div>
        </form>
        {state.progress ? (
          <p role="status" data-testid="whatif-progress">
            <progress className={styles.progress} value={state.progress.done} max={Math.max(1, state.progress.total)} />{" "}
            {state.progress.done.toLocaleString()} of {state.progress.total.toLocaleString()} recalls
            {state.running ? "…" : ""}
          </p>
        ) : null}
        {state.error ? <Notice tone={state.error === "Cancelled." ? "info" : "error"}>{state.error}</Notice> : null}
      </section>
      {state.result && resultFor ? (
        <WhatIfResultView result={state.result} label={resultLabel} filters={resultFor.filters} stale={state.running} />
      ) : null}
    </div>
  );
}
