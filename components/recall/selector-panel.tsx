import { useId } from "react";
import { shortenId } from "@/lib/format";
import { droppedListNote, resultRowHref, selectorReasonText } from "@/lib/recall-log/format";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./panels.module.css";

/** A possibly shortened id; assistive technology reads the full one. */
function IdText({ id }: { id: string }) {
  const short = shortenId(id);
  if (short === id) return <>{id}</>;
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <span className={styles.visuallyHidden}>{id}</span>
    </>
  );
}

export interface SelectorPanelProps {
  view: LoggedRecall;
}

/**
 * What the recall selector did to the returned page: applied (model, kept / dropped counts, the
 * dropped ids linking to their result rows) or not (the reason, in words).
 */
export function SelectorPanel({ view }: SelectorPanelProps) {
  const titleId = useId();
  const selector = view.selector;

  const head = (
    <div className={styles.panelHead}>
      <h2 className={styles.title} id={titleId}>
        Selector
      </h2>
    </div>
  );

  if (selector === null) {
    return (
      <section className={styles.panel} data-testid="selector-panel" data-applied="unknown" aria-labelledby={titleId}>
        {head}
        <p className={styles.reason}>No selector information</p>
        <p className={styles.note}>
          {view.status === "error"
            ? "The recall failed before a selector could run."
            : "The service that produced this recall did not report what its selector did."}
        </p>
      </section>
    );
  }

  if (!selector.applied) {
    const text = selectorReasonText(selector.reason);
    const showCode = selector.reason !== undefined && selector.reason.trim() !== "" && text !== selector.reason;
    return (
      <section className={styles.panel} data-testid="selector-panel" data-applied="false" aria-labelledby={titleId}>
        {head}
        <p className={styles.status}>
          <span className={styles.statusPill} data-applied="false">
            Not applied
          </span>
          <span className={styles.muted}>the page is the unselected one</span>
        </p>
        <p className={styles.reason} data-testid="selector-reason">
          {text}
          {showCode ? (
            <>
              {" "}
              <span className={styles.reasonCode}>
                (reason: <code className={styles.mono}>{selector.reason}</code>)
              </span>
            </>
          ) : null}
        </p>
      </section>
    );
  }

  const ids = selector.dropped_memory_ids ?? [];
  const onPage = new Set(view.results.map((r) => r.memory_id));
  const note = droppedListNote(selector.dropped, ids.length);
  const count = (n: number | undefined) => (n === undefined ? "—" : n);

  return (
    <section className={styles.panel} data-testid="selector-panel" data-applied="true" aria-labelledby={titleId}>
      {head}
      <p className={styles.status}>
        <span className={styles.statusPill} data-applied="true">
          Applied
        </span>
        <span>
          model{" "}
          {selector.model ? (
            <code className={styles.mono} data-testid="selector-model">
              {selector.model}
            </code>
          ) : (
            <span className={styles.muted}>not recorded</span>
          )}
        </span>
      </p>
      <dl className={styles.counts}>
        <div className={styles.figure}>
          <dt>Kept</dt>
          <dd className={styles.figureValue} data-testid="selector-kept">
            {count(selector.kept)}
          </dd>
        </div>
        <div className={styles.figure}>
          <dt>Dropped</dt>
          <dd className={styles.figureValue} data-testid="selector-dropped">
            {count(selector.dropped)}
          </dd>
        </div>
      </dl>
      {ids.length > 0 ? (
        <div>
          <h3 className={styles.subheading}>Dropped ids</h3>
          <ul className={styles.droppedList} data-testid="selector-dropped-ids">
            {ids.map((id) => (
              <li key={id}>
                {onPage.has(id) ? (
                  <a className={styles.droppedLink} href={resultRowHref(id)} title={`Go to result ${id}`}>
                    <IdText id={id} />
                  </a>
                ) : (
                  <span className={`${styles.droppedLink} ${styles.droppedOff}`} title={`${id} is not on this page`}>
                    <IdText id={id} /> <span className={styles.visuallyHidden}>(not on this page)</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : selector.dropped === 0 ? (
        <p className={styles.note}>Nothing dropped: the selector kept every result.</p>
      ) : selector.dropped === undefined ? (
        <p className={styles.note}>The dropped ids were not reported.</p>
      ) : null}
      {note ? (
        <p className={styles.note} data-testid="selector-dropped-cap">
          {note}
        </p>
      ) : null}
    </section>
  );
}
