import { panelSubheadingClassName } from "@/components/ui/panel";
import { formatScore, plural } from "@/lib/format";
import type { LoggedSelectorTrace } from "@/lib/recall-log/types";
import styles from "./selector-panel.module.css";

/**
 * What the selector saw and said, as logged with the recall (lib/selectors/README.md "Selector
 * truth"): the prompt version and the page it was given, the raw answer, the keep list it wrote,
 * any id it invented, tokens and latency. Open by default when the selector failed, since the
 * answer is then the evidence.
 */
export function SelectorTraceView({ trace, open }: { trace: LoggedSelectorTrace; open: boolean }) {
  const tokens = [
    trace.prompt_tokens !== undefined ? `${trace.prompt_tokens.toLocaleString("en-US")} prompt` : null,
    trace.completion_tokens !== undefined ? `${trace.completion_tokens.toLocaleString("en-US")} completion` : null,
    trace.total_tokens !== undefined ? `${trace.total_tokens.toLocaleString("en-US")} total` : null,
  ].filter((t): t is string => t !== null);
  const asked = trace.prompt_version !== undefined || trace.raw_answer !== undefined;
  return (
    <details className={styles.trace} open={open} data-testid="selector-trace">
      <summary>{asked ? "What the LLM saw and said" : "How it ran"}</summary>
      <dl className={styles.traceList}>
        {trace.latency_ms !== undefined ? (
          <div>
            <dt>Latency</dt>
            <dd data-testid="selector-latency">{trace.latency_ms.toFixed(1)} ms</dd>
          </div>
        ) : null}
        {tokens.length > 0 ? (
          <div>
            <dt>Tokens</dt>
            <dd data-testid="selector-tokens">{tokens.join(" · ")}</dd>
          </div>
        ) : null}
        {trace.http_status !== undefined ? (
          <div>
            <dt>HTTP status</dt>
            <dd>{trace.http_status}</dd>
          </div>
        ) : null}
        {trace.score_gap ? (
          <>
            <div>
              <dt>Signal</dt>
              <dd data-testid="selector-gap-signal">
                raw cosine ({trace.score_gap.participants} of the page&apos;s results carry one)
              </dd>
            </div>
            <div>
              <dt>Threshold</dt>
              <dd>a relative drop of at least {Math.round(trace.score_gap.min_relative_drop * 100)} %</dd>
            </div>
            <div>
              <dt>Largest drop</dt>
              <dd data-testid="selector-gap-drop">
                {trace.score_gap.largest_relative_drop === null
                  ? "none measured"
                  : `${(trace.score_gap.largest_relative_drop * 100).toFixed(1)} %`}
              </dd>
            </div>
            <div>
              <dt>Cut</dt>
              <dd data-testid="selector-gap-cut">
                {trace.score_gap.cut
                  ? `below rank ${trace.score_gap.cut.above.rank} (${formatScore(trace.score_gap.cut.above.raw_cosine)}), above rank ${trace.score_gap.cut.below.rank} (${formatScore(trace.score_gap.cut.below.raw_cosine)})`
                  : "none: every result kept"}
              </dd>
            </div>
          </>
        ) : null}
        {trace.prompt_version !== undefined ? (
          <div>
            <dt>Prompt</dt>
            <dd data-testid="selector-prompt">
              version <code className="mono">{trace.prompt_version}</code>
              {trace.page_ids ? <>, given {plural(trace.page_ids.length, "result")} of this page in rank order</> : null}
            </dd>
          </div>
        ) : null}
        {trace.detail ? (
          <div>
            <dt>Detail</dt>
            <dd data-testid="selector-detail">{trace.detail}</dd>
          </div>
        ) : null}
        {trace.keep_ids !== undefined ? (
          <div>
            <dt>Keep list it wrote</dt>
            <dd data-testid="selector-keep-ids">
              {trace.keep_ids.length === 0 ? (
                <span className={styles.muted}>empty (keep nothing)</span>
              ) : (
                trace.keep_ids.map((id, i) => (
                  <span key={`${id}-${i}`}>
                    {i > 0 ? ", " : null}
                    <code className={`mono ${trace.unknown_ids?.includes(id) ? styles.invented : ""}`}>{id}</code>
                  </span>
                ))
              )}
            </dd>
          </div>
        ) : null}
        {trace.unknown_ids && trace.unknown_ids.length > 0 ? (
          <div>
            <dt>Invented ids (not on the page)</dt>
            <dd data-testid="selector-unknown-ids">
              {trace.unknown_ids.map((id, i) => (
                <span key={id}>
                  {i > 0 ? ", " : null}
                  <code className={`mono ${styles.invented}`}>{id}</code>
                </span>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
      {trace.raw_answer !== undefined ? (
        <div>
          <h3 className={panelSubheadingClassName}>Raw answer</h3>
          <pre className={styles.rawAnswer} data-testid="selector-raw-answer">
            {trace.raw_answer === "" ? "(empty)" : trace.raw_answer}
          </pre>
        </div>
      ) : null}
    </details>
  );
}
