import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { PanelHead, panelClassName, panelNoteClassName, panelSubheadingClassName } from "@/components/ui/panel";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import { shortenId } from "@/lib/format";
import { selectorReasonKind, selectorReasonKindLabel, selectorReasonLabel } from "@/lib/recall/selector-reasons";
import { droppedListNote, resultRowHref } from "@/lib/recall-log/format";
import type { LoggedRecall } from "@/lib/recall-log/types";
import figures from "./figures.module.css";
import styles from "./selector-panel.module.css";
import { SelectorTraceView } from "./selector-trace";
import { scoreGapWords, selectorKindWords } from "./selector-words";

/** A possibly shortened id; assistive technology reads the full one. */
function IdText({ id }: { id: string }) {
  const short = shortenId(id);
  if (short === id) return <>{id}</>;
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <span className={visuallyHiddenClassName}>{id}</span>
    </>
  );
}

export interface SelectorPanelProps {
  view: LoggedRecall;
}

/**
 * What the recall selector did to the returned page: applied (model, kept / dropped counts, the
 * dropped ids linking to their result rows) or not (the reason in words, with its kind: off by
 * choice, not set up, nothing to judge, failed); and what the selector saw and said (the trace).
 */
export function SelectorPanel({ view }: SelectorPanelProps) {
  const titleId = useId();
  const selector = view.selector;

  const head = <PanelHead title="Selector" titleId={titleId} />;

  if (selector === null) {
    return (
      <section className={panelClassName} data-testid="selector-panel" data-applied="unknown" aria-labelledby={titleId}>
        {head}
        <p className={styles.reason}>No selector information</p>
        <p className={panelNoteClassName}>
          {view.status === "error"
            ? "The recall failed before a selector could run."
            : "The service that produced this recall did not report what its selector did."}
        </p>
      </section>
    );
  }

  const trace = view.selector_trace;
  const kindWords = selectorKindWords(selector.applied ? selector.model : null, trace);
  const ranks = (rows: LoggedRecall["results"]) => rows.flatMap((r) => (r.rank === undefined ? [] : [r.rank]));
  const gapWords = scoreGapWords(trace, ranks(view.results), ranks(view.dropped_results));
  // Which kind of selector ran and what that means, then the score gap's reasoning, in words.
  const explained =
    kindWords || gapWords.length > 0 ? (
      <div className={styles.explain} data-testid="selector-explain" data-kind={kindWords?.kind}>
        {kindWords ? (
          <p>
            <strong data-testid="selector-kind-words">{kindWords.title}.</strong> {kindWords.meaning}
          </p>
        ) : null}
        {gapWords.map((line) => (
          <p key={line} data-testid="selector-gap-words">
            {line}
          </p>
        ))}
      </div>
    ) : null;

  if (!selector.applied) {
    const kind = selectorReasonKind(selector.reason);
    const label = selectorReasonLabel(selector.reason);
    const showCode = selector.reason !== undefined && selector.reason.trim() !== "" && label !== selector.reason;
    const invented = selector.reason === "unknown_id" ? (trace?.unknown_ids ?? []) : [];
    return (
      <section
        className={panelClassName}
        data-testid="selector-panel"
        data-applied="false"
        data-kind={kind}
        aria-labelledby={titleId}
      >
        {head}
        <p className={styles.status}>
          <Badge data-applied="false">Not applied</Badge>
          <Badge tone={kind === "failed" ? "danger" : "neutral"} data-kind={kind} data-testid="selector-kind">
            {selectorReasonKindLabel(kind)}
          </Badge>
          {trace?.model ? (
            <span>
              model <code className="mono">{trace.model}</code>
            </span>
          ) : null}
        </p>
        <p className={styles.reason} data-testid="selector-reason">
          {label}
          {invented.length > 0 ? (
            <>
              {": "}
              {invented.map((id, i) => (
                <span key={id}>
                  {i > 0 ? ", " : null}
                  <code className={`mono ${styles.invented}`}>{id}</code>
                </span>
              ))}
            </>
          ) : null}
          {showCode ? (
            <>
              {" "}
              <span className={styles.reasonCode}>
                (reason: <code className="mono">{selector.reason}</code>)
              </span>
            </>
          ) : null}
        </p>
        <p className={panelNoteClassName}>
          {kind === "off"
            ? "Nobody asked for a selector: the page is the store's, unselected."
            : "The page is the unselected one."}
        </p>
        {kind === "off" ? null : explained}
        {trace ? <SelectorTraceView trace={trace} open={kind === "failed"} /> : null}
      </section>
    );
  }

  const ids = selector.dropped_memory_ids ?? [];
  const onPage = new Set([...view.results, ...view.dropped_results].filter((r) => r.rank !== undefined).map((r) => r.memory_id));
  const note = droppedListNote(selector.dropped, ids.length);
  const count = (n: number | undefined) => (n === undefined ? "—" : n);

  return (
    <section className={panelClassName} data-testid="selector-panel" data-applied="true" aria-labelledby={titleId}>
      {head}
      <p className={styles.status}>
        <Badge tone="accent" data-applied="true">
          Applied
        </Badge>
        <span>
          model{" "}
          {selector.model ? (
            <code className="mono" data-testid="selector-model">
              {selector.model}
            </code>
          ) : (
            <span className={styles.muted}>not recorded</span>
          )}
        </span>
      </p>
      <dl className={styles.counts}>
        <div className={figures.figure}>
          <dt>Kept</dt>
          <dd className={figures.figureValue} data-testid="selector-kept">
            {count(selector.kept)}
          </dd>
        </div>
        <div className={figures.figure}>
          <dt>Dropped</dt>
          <dd className={figures.figureValue} data-testid="selector-dropped">
            {count(selector.dropped)}
          </dd>
        </div>
      </dl>
      {explained}
      {ids.length > 0 ? (
        <div>
          <h3 className={panelSubheadingClassName}>Dropped ids</h3>
          <ul className={styles.droppedList} data-testid="selector-dropped-ids">
            {ids.map((id) => (
              <li key={id}>
                {onPage.has(id) ? (
                  <a className={styles.droppedLink} href={resultRowHref(id)} title={`Go to result ${id}`}>
                    <IdText id={id} />
                  </a>
                ) : (
                  <span className={`${styles.droppedLink} ${styles.droppedOff}`} title={`${id} is not on this page`}>
                    <IdText id={id} /> <span className={visuallyHiddenClassName}>(not on this page)</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : selector.dropped === 0 ? (
        <p className={panelNoteClassName}>Nothing dropped: the selector kept every result.</p>
      ) : selector.dropped === undefined ? (
        <p className={panelNoteClassName}>The dropped ids were not reported.</p>
      ) : null}
      {note ? (
        <p className={panelNoteClassName} data-testid="selector-dropped-cap">
          {note}
        </p>
      ) : null}
      {trace ? <SelectorTraceView trace={trace} open={false} /> : null}
    </section>
  );
}
