"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { missingIdsLine } from "@/components/filters/store-label";
import { StoreOptions } from "@/components/filters/store-options";
import { buttonClassName } from "@/components/ui/button";
import { controlClassName, Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { panelClassName } from "@/components/ui/panel";
import { defaultSetId } from "@/lib/eval/default-set";
import { EvalRunBodySchema } from "@/lib/eval/run-schemas";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useEvalRuns, useStartEvalRun } from "@/lib/queries/use-eval";
import { useSelectors, useStores, type SelectorOption, type StoreOption } from "@/lib/queries/use-recall";
import { useSetMissingIds, useStoreDatasets } from "@/lib/queries/use-stores";
import { parseForm } from "@/lib/validation/form-messages";
import styles from "./evaluate.module.css";

/** How form errors name the fields (the console's names where they are the same setting). */
const FIELD_NAMES: Record<string, string> = {
  dataset_id: "Labeled set",
  store: "Store",
  k: "k",
  search_mode: "Search mode",
  selector: "Selector",
  use_rerank: "Rerank",
  profile: "Profile",
};

type Mode = "hybrid" | "semantic" | "keyword";
type SelectorChoice = "off" | "gap" | "llm";

/** Why the LLM option cannot run here, or null when it can (or while the list loads). */
function llmUnavailable(selectors: SelectorOption[] | undefined): string | null {
  const llm = selectors?.find((s) => s.id === "llm");
  if (!llm || llm.available) return null;
  return llm.hint ?? "set SELECTOR_LLM_BASE_URL and SELECTOR_LLM_MODEL";
}

/** What the Rerank box says under it: who reranks, or why nobody can on this store. */
function rerankWords(store: StoreOption | undefined): { available: boolean | undefined; text: string } {
  const rerank = store?.rerank;
  if (!rerank) return { available: undefined, text: "Compare with a run without it." };
  if (!rerank.available)
    return { available: false, text: "No reranker here: set RERANK_BASE_URL and RERANK_MODEL, then restart." };
  if (rerank.by === "service") return { available: true, text: "The memory service reranks; compare with a run without it." };
  return { available: true, text: `Reranker ${rerank.model ?? ""}; compare with a run without it.` };
}

/**
 * Evaluate's "Start a run": the console's settings, validated by the API's own schema
 * (`EvalRunBodySchema`, whose k and settings are the console's), so k = 0 is named under the
 * field instead of running as k = 1. An LLM selector or a rerank this server cannot do is offered
 * disabled, the reason and the settings to set written under it (the API refuses both with 422).
 * The store comes first and the sets offered are that store's only (their relevant ids name its
 * memories); before the run it says which of the set's relevant ids the store does not hold.
 */
export function StartRunPanel({
  store,
  onStore,
}: {
  /** The chosen store's name ("" while the store list loads); the page keeps it, its upload writes there too. */
  store: string;
  onStore: (store: string) => void;
}) {
  const runs = useEvalRuns();
  const stores = useStores();
  const selectors = useSelectors();
  const start = useStartEvalRun();
  const router = useRouter();
  const id = useId();
  const [datasetId, setDatasetId] = useState("");
  const sets = useStoreDatasets(store);
  const storeSets = sets.data?.datasets ?? [];
  const [k, setK] = useState(5);
  const [mode, setMode] = useState<Mode>("hybrid");
  const [selector, setSelector] = useState<SelectorChoice>("off");
  const [profile, setProfile] = useState("");
  const [rerank, setRerank] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const chosen =
    (storeSets.some((s) => s.id === datasetId) ? datasetId : "") || defaultSetId(storeSets, runs.data?.runs ?? [], store);
  const missing = useSetMissingIds(chosen, store);
  const missingLine = missingIdsLine(missing.data ?? undefined, store);
  const llmReason = llmUnavailable(selectors.data);
  const storeInfo = stores.data?.find((s) => s.name === store);
  const rerankState = rerankWords(storeInfo);
  const rerankOff = rerankState.available === false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseForm(
      EvalRunBodySchema,
      {
        dataset_id: chosen,
        store: store || undefined,
        k,
        search_mode: mode,
        selector,
        use_rerank: rerank && !rerankOff,
        profile: profile.trim() || undefined,
      },
      FIELD_NAMES,
    );
    if (!parsed.success) {
      setErrors({ ...parsed.fields, ...(parsed.general.length ? { form: parsed.general } : {}) });
      return;
    }
    setErrors({});
    start.mutate(parsed.data, { onSuccess: (run) => router.push(`/evaluate/runs/${run.id}`) });
  };
  const error = (field: string) => errors[field]?.join(" ");

  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Start a run</h2>
      <p className={`${styles.hint}`}>
        Every query of the set runs through the console&apos;s recall and is logged (source &ldquo;eval&rdquo;), so each row of
        the report opens in the console. Evaluation runs are left out of Insights unless you ask for them.
      </p>
      <form className={styles.row} onSubmit={submit} noValidate>
        <Field id={`${id}-store`} label="Store" error={error("store")}>
          <select
            className={controlClassName}
            id={`${id}-store`}
            value={store}
            onChange={(e) => {
              onStore(e.target.value);
              setDatasetId("");
            }}
          >
            {stores.data ? <StoreOptions stores={stores.data} /> : <option value={store}>{store || "Loading stores…"}</option>}
          </select>
        </Field>
        <Field id={`${id}-set`} label="Labeled set" error={error("dataset_id")}>
          <select
            className={controlClassName}
            id={`${id}-set`}
            value={chosen}
            onChange={(e) => setDatasetId(e.target.value)}
            disabled={!storeSets.length}
          >
            {storeSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.count} queries)
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-k`} label="k (results)" error={error("k")}>
          <input
            className={controlClassName}
            id={`${id}-k`}
            type="number"
            min={1}
            max={100}
            value={Number.isFinite(k) ? k : ""}
            onChange={(e) => setK(e.target.valueAsNumber)}
            aria-invalid={error("k") ? true : undefined}
            aria-describedby={error("k") ? `${id}-k-error` : undefined}
            data-testid="eval-k"
          />
        </Field>
        <Field id={`${id}-mode`} label="Search mode" error={error("search_mode")}>
          <select className={controlClassName} id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            <option value="hybrid">hybrid</option>
            <option value="semantic">semantic</option>
            <option value="keyword">keyword</option>
          </select>
        </Field>
        <Field
          id={`${id}-selector`}
          label="Selector"
          hint={llmReason ? `LLM not configured: ${llmReason}.` : undefined}
          error={error("selector")}
        >
          <select
            className={controlClassName}
            id={`${id}-selector`}
            value={selector}
            onChange={(e) => setSelector(e.target.value as SelectorChoice)}
            aria-describedby={llmReason ? `${id}-selector-hint` : undefined}
            data-testid="eval-selector"
          >
            <option value="off">off</option>
            <option value="gap">score gap (offline heuristic)</option>
            <option value="llm" disabled={llmReason !== null}>
              {llmReason ? "LLM (not configured)" : "LLM"}
            </option>
          </select>
        </Field>
        <Field id={`${id}-rerank`} label="Rerank" hint={rerankState.text} error={error("use_rerank")}>
          <input
            id={`${id}-rerank`}
            type="checkbox"
            checked={rerank && !rerankOff}
            disabled={rerankOff}
            onChange={(e) => setRerank(e.target.checked)}
            aria-describedby={`${id}-rerank-hint`}
            data-testid="eval-rerank"
          />
        </Field>
        <Field id={`${id}-profile`} label="Profile (optional)" error={error("profile")}>
          <input
            className={controlClassName}
            id={`${id}-profile`}
            type="text"
            value={profile}
            placeholder="store default"
            onChange={(e) => setProfile(e.target.value)}
          />
        </Field>
        {missingLine ? (
          <Notice tone="warning" className={styles.fullRow} data-testid="missing-ids">
            <p>{missingLine} Those queries can only miss in this store: is it the store the set was labeled for?</p>
          </Notice>
        ) : null}
        <button className={buttonClassName({ variant: "primary" })} type="submit" disabled={!chosen || start.isPending}>
          {start.isPending ? "Starting…" : "Start run"}
        </button>
      </form>
      {sets.isSuccess && storeSets.length === 0 ? (
        <p className={styles.muted} data-testid="no-sets">
          No labeled sets for store {store} yet — <a href="#sets-h">upload one</a> under Labeled sets below.
        </p>
      ) : null}
      {errors.form ? <Notice tone="error">{errors.form.join(" ")}</Notice> : null}
      {sets.isError ? <Notice tone="error">{errorMessage(sets.error)}</Notice> : null}
      {start.isError ? <Notice tone="error">{errorMessage(start.error)}</Notice> : null}
    </section>
  );
}
