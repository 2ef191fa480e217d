import { useId, type ReactNode } from "react";
import { Notice } from "@/components/ui/notice";
import { PanelHead, panelClassName, panelNoteClassName, panelSubheadingClassName } from "@/components/ui/panel";
import { noticeTitle } from "@/lib/charts/score-distribution";
import { formatBm25, formatScore, shortenId } from "@/lib/format";
import { triageAdvice, type TraceStep } from "@/lib/recall/confidence";
import { explainTrace } from "@/lib/recall/explain";
import { basisText, normalizeLevel, resultRowHref, topScoreIsCosine } from "@/lib/recall-log/format";
import type { LoggedRecall, RecallNotice } from "@/lib/recall-log/types";
import { StoreVerdict } from "./confidence-panel-verdict";
import styles from "./confidence-panel.module.css";
import figures from "./figures.module.css";
import { LevelBadge } from "./level-badge";
import { REVEAL_VERDICT } from "./reveal";

export interface ConfidencePanelProps {
  view: LoggedRecall;
  /** The verdict's id, so the result's heading can read it out (aria-describedby). */
  verdictId?: string;
}

function Figure({ label, value, note, wide = false }: { label: string; value: ReactNode; note?: ReactNode; wide?: boolean }) {
  return (
    <div className={`${figures.figure} ${wide ? figures.figureWide : ""}`}>
      <dt>{label}</dt>
      <dd>
        <span className={wide ? figures.figureText : figures.figureValue}>{value}</span>
        {note ? <span className={figures.figureNote}>{note}</span> : null}
      </dd>
    </div>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The confidence block of one recall: the level and its triage advice, the key figures, the
 * secondary relative margin, and "why this level" (the rule trace as sentences, in firing order,
 * plus the reference's rationale).
 */
export function ConfidencePanel({ view, verdictId }: ConfidencePanelProps) {
  const titleId = useId();
  const confidence = view.confidence;

  if (confidence === null) {
    const failed = view.status === "error";
    return (
      <section className={panelClassName} data-testid="confidence-panel" aria-labelledby={titleId}>
        <PanelHead title="Confidence" titleId={titleId} />
        <div className={styles.verdict} id={verdictId} data-testid="verdict" {...REVEAL_VERDICT}>
          <LevelBadge level={null} size="large" />
          <div className={styles.verdictText}>
            <p className={styles.advice}>
              {failed ? "No confidence: the recall failed." : "No confidence block was recorded for this recall."}
            </p>
            {failed && view.error ? (
              <p className={styles.caveat}>
                {view.error.message} <span className="mono">({view.error.code})</span>
              </p>
            ) : null}
          </div>
        </div>
      </section>
    );
  }

  const level = normalizeLevel(confidence.level);
  const advice = level === "unknown" ? null : triageAdvice(level);
  const cosineTop = topScoreIsCosine(confidence.basis);
  // An ingested recall may carry no trace (older logs, other services): typed loosely on purpose.
  const trace: readonly TraceStep[] | undefined = confidence.trace;
  const sentences = trace && trace.length > 0 ? explainTrace(trace) : null;
  const derived = confidence.background_derived === true;
  // On the keyword-only path the z-score is not informational: its bands are the rule.
  const zDecides = confidence.basis === "zscore";
  // The store's verdict leads where its profile has a model; the reference block follows.
  const profileBlock = view.profile_confidence;
  const storeBlock =
    profileBlock && typeof profileBlock.probability === "number"
      ? { ...profileBlock, probability: profileBlock.probability }
      : null;

  return (
    <section className={panelClassName} data-testid="confidence-panel" aria-labelledby={titleId}>
      <PanelHead
        title="Confidence"
        titleId={titleId}
        aside={
          <>
            <p className={panelNoteClassName}>A triage hint, never a correctness verdict; it does not change the ranking.</p>
          </>
        }
      />

      {storeBlock ? <StoreVerdict view={view} block={storeBlock} verdictId={verdictId} /> : null}

      <div
        className={`${styles.verdict} ${storeBlock ? styles.referenceVerdict : ""}`}
        {...(storeBlock ? { "data-testid": "reference-block" } : { id: verdictId, "data-testid": "verdict", ...REVEAL_VERDICT })}
      >
        {storeBlock ? <h3 className={panelSubheadingClassName}>Reference rules (what the agent saw)</h3> : null}
        <LevelBadge level={confidence.level} size={storeBlock ? undefined : "large"} />
        <div className={styles.verdictText} data-testid="triage-advice">
          {advice === null ? (
            <p className={styles.advice}>Unrecognised level “{String(confidence.level)}”: no triage advice.</p>
          ) : (
            <>
              <p className={styles.advice} data-verdict={advice.verdict}>
                {capitalize(advice.text)}.
              </p>
              <p className={styles.caveat}>
                {advice.verdict === "worth_reading"
                  ? "Read the results to confirm: a near-miss (on-topic wording that does not answer the question) can still read high."
                  : "The best match does not stand out from the rest of the pool, or is too weak to trust; look outside this memory store."}
              </p>
            </>
          )}
        </div>
      </div>

      {view.top_memory?.dropped ? (
        <Notice tone="warning" role="note" data-testid="top-dropped-warning">
          The level rests on a memory the selector dropped:{" "}
          <a href={resultRowHref(view.top_memory.memory_id)} className="mono">
            {shortenId(view.top_memory.memory_id)}
          </a>{" "}
          set the top score, but the agent did not get it
          {view.results.length > 0 ? "; the page it got may be weaker than this level says" : "; the page it got is empty"}.
        </Notice>
      ) : null}

      {confidence.computed_from === "scores" ? (
        <Notice tone="warning" role="note" data-testid="confidence-computed-here">
          Computed here, not stated by a memory service: the span carried no confidence block, so the fallback rules judged the{" "}
          {confidence.result_count} returned score{confidence.result_count === 1 ? "" : "s"} alone (no candidate pool, no raw
          cosines).
        </Notice>
      ) : null}

      {view.degraded ? (
        <Notice tone="warning">
          This recall ran degraded (<span className="mono">{view.degraded.reason}</span>), so some scores may be missing.
        </Notice>
      ) : null}

      <dl className={figures.figures}>
        <Figure
          label="Top score"
          value={formatScore(confidence.top_score)}
          note={
            confidence.top_score === null
              ? "no candidates"
              : cosineTop
                ? "raw cosine of the best candidate"
                : "best hybrid / BM25 score (no raw cosines)"
          }
        />
        <Figure
          label="Prominence"
          value={formatScore(confidence.prominence)}
          note={confidence.prominence === null ? "not defined for this pool" : "(top − bg mean) / bg mean"}
        />
        <Figure
          label="Background mean"
          value={formatScore(confidence.background_mean)}
          note={
            derived
              ? "derived as top / (1 + prominence); approximate (both rounded to 3 dp)"
              : confidence.background_mean === null
                ? "no background in this pool"
                : "pool without one copy of the top"
          }
        />
        <Figure
          label="Background std"
          value={formatScore(confidence.background_std)}
          note={
            confidence.background_std === null
              ? derived
                ? "not returned by this store"
                : "no background in this pool"
              : "population std dev"
          }
        />
        <Figure
          label="Pool size"
          value={confidence.result_count}
          note={`${confidence.result_count === 1 ? "candidate" : "candidates"} judged (result_count)`}
        />
        <Figure label="Threshold profile" value={<span className="mono">{confidence.thresholds || "—"}</span>} />
        <Figure label="Basis" value={basisText(confidence.basis)} wide />
      </dl>

      <dl className={styles.secondary} data-testid="relative-margin" data-secondary={zDecides ? "false" : "true"}>
        <dt>Relative margin (z)</dt>
        <dd className={styles.secondaryValue}>{formatScore(confidence.relative_margin)}</dd>
        <dd>
          {zDecides ? (
            "the z-score of the top over the background; in a keyword-only pool it decides the level"
          ) : (
            <>
              <span className={styles.secondaryTag}>Secondary</span> informational; reads high even for off-topic queries
            </>
          )}
        </dd>
      </dl>

      <div className={styles.why}>
        <h3 className={panelSubheadingClassName}>Why this level</h3>
        {sentences ? (
          <ol className={styles.trace} data-testid="why-this-level">
            {sentences.map((sentence, i) => (
              <li key={i} className={i === sentences.length - 1 ? styles.traceLast : undefined}>
                {sentence ?? `Rule “${String(trace?.[i]?.rule)}” (no description).`}
              </li>
            ))}
          </ol>
        ) : (
          <p className={panelNoteClassName} data-testid="trace-unavailable">
            The rule trace is unavailable for this recall (the service that produced it did not record one); the reference
            rationale below is all there is.
          </p>
        )}
        <NoticeTrace notices={view.notices} />
        {confidence.rationale ? (
          <figure className={styles.rationale}>
            <blockquote data-testid="confidence-rationale">{confidence.rationale}</blockquote>
            <figcaption>Rationale, as the reference memory service words it</figcaption>
          </figure>
        ) : null}
      </div>
    </section>
  );
}

function rankText(rank: number | null | undefined): string {
  return rank === null || rank === undefined ? "not fetched" : `#${rank}`;
}

/**
 * The recall's notices as steps of "why": what the level does not see (a better raw cosine pushed
 * out of the pool by the merge), naming the memory, with its rank in each arm when known.
 */
function NoticeTrace({ notices }: { notices: readonly RecallNotice[] | undefined }) {
  if (!notices || notices.length === 0) return null;
  return (
    <ul className={styles.noticeTrace} data-testid="why-notices" aria-label="What the ranking hides">
      {notices.map((n, i) => (
        <li key={`${n.kind}-${n.memory_id ?? ""}-${i}`} data-kind={n.kind}>
          <strong>{noticeTitle(String(n.kind))}</strong>
          {n.memory_id ? (
            <>
              {" "}
              <code className="mono">{n.memory_id}</code>
            </>
          ) : null}
          : {n.message}
          {n.ranks ? (
            <span className={styles.noticeRanks}>
              {" "}
              {`Rank semantic ${rankText(n.ranks.semantic)} · keyword ${rankText(n.ranks.keyword)} · merged ${rankText(n.ranks.merged)}.`}
            </span>
          ) : null}
          {typeof n.computed_keyword_score === "number" ? (
            <span className={styles.noticeRanks}>
              {" "}
              BM25 {formatBm25(n.computed_keyword_score)}, computed for display: not used by the merge.
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
