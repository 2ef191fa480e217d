import Link from "next/link";
import { useId } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { PanelHead, panelClassName, panelNoteClassName } from "@/components/ui/panel";
import { EmptyState } from "@/components/ui/states";
import { DataTable, numericCellClassName, type DataTableColumn } from "@/components/ui/table";
import { visuallyHiddenClassName } from "@/components/ui/visually-hidden";
import { formatBm25, formatScore, plural, shortenId } from "@/lib/format";
import { memoryPageHref, useMissingMemories } from "@/lib/queries/use-memory-page";
import { useStores } from "@/lib/queries/use-recall";
import { emptyResultsMessage, outsideCandidatesLabel, resultRowId, scoreMeaning } from "@/lib/recall-log/format";
import { displayPage } from "@/lib/recall-log/page";
import type { LoggedCandidate, LoggedRecall } from "@/lib/recall-log/types";
import styles from "./results-table.module.css";

export interface ResultsTableProps {
  view: LoggedRecall;
}

/**
 * The memory id, shortened when long (the full id is read out and copied). A memory of an
 * embedded store links to its page there; one deleted since the recall ran is marked.
 */
function MemoryId({ id, store, deleted }: { id: string; store: string | null; deleted: boolean }) {
  const short = shortenId(id);
  const text =
    short === id ? (
      <code className={styles.idText}>{id}</code>
    ) : (
      <code className={styles.idText} title={id}>
        <span aria-hidden="true">{short}</span>
        <span className={visuallyHiddenClassName}>{id}</span>
      </code>
    );
  return (
    <span className={styles.idWrap}>
      {store ? (
        <Link href={memoryPageHref(id, store)} className={styles.idLink}>
          {text}
        </Link>
      ) : (
        text
      )}
      <CopyButton value={id} label="memory id" />
      {deleted ? (
        <span className={styles.deletedTag} data-testid="deleted-memory" title="The store no longer holds this memory">
          Deleted
        </span>
      ) : null}
    </span>
  );
}

/**
 * Whether a recall's memories live in an embedded store that still exists (they have pages
 * there, and can be deleted since): its memory ids link to their pages in that store.
 */
function useMemoryMarks(view: LoggedRecall) {
  const stores = useStores();
  const embedded = stores.data?.some((s) => s.kind === "embedded" && s.name === view.store) ?? false;
  const ids = [...displayPage(view).map((r) => r.memory_id), ...(view.candidates ?? []).map((c) => c.memory_id)];
  const missing = useMissingMemories(ids, embedded, view.store);
  return (id: string) => ({ store: embedded ? view.store : null, deleted: missing.has(id) });
}

/**
 * A row's three scores. On a phone each row is a card (results-table.module.css), and these cells
 * are captioned from `data-caption`, so the scores stay in view instead of behind a sideways scroll.
 */
function ScoreCells({
  hybrid,
  cosine,
  bm25,
}: {
  hybrid: number | null | undefined;
  cosine: number | null | undefined;
  bm25: number | null | undefined;
}) {
  return (
    <>
      <td className={`${numericCellClassName} ${styles.score}`} data-caption="Score" data-testid="result-score">
        {formatScore(hybrid)}
      </td>
      <td className={`${numericCellClassName} ${styles.score}`} data-caption="Raw cosine" data-testid="result-cosine">
        {formatScore(cosine)}
      </td>
      <td className={`${numericCellClassName} ${styles.score}`} data-caption="BM25" data-testid="result-bm25">
        {formatBm25(bm25)}
      </td>
    </>
  );
}

/** The score columns, the rank and the memory, shared by the page and the candidates outside it. */
const SCORE_COLUMNS: DataTableColumn[] = [
  { label: "Score", numeric: true },
  { label: "Raw cosine", numeric: true },
  { label: "BM25", numeric: true },
];
const PAGE_COLUMNS: DataTableColumn[] = [
  { label: "Rank", numeric: true, className: styles.rank },
  "Memory id",
  "Summary",
  ...SCORE_COLUMNS,
];
const OUTSIDE_COLUMNS: DataTableColumn[] = [
  ...PAGE_COLUMNS,
  { label: "In pool", title: "Counted in the confidence pool (the first candidates_k)" },
];

/** Candidates outside the returned page, collapsed under a <details>. */
function OutsideCandidates({
  candidates,
  marks,
}: {
  candidates: readonly LoggedCandidate[];
  marks: ReturnType<typeof useMemoryMarks>;
}) {
  const captionId = useId();
  const rows = [...candidates].sort((a, b) => a.rank - b.rank);
  const counted = rows.filter((c) => c.in_pool).length;
  return (
    <details className={styles.outside} data-testid="outside-candidates">
      <summary>{outsideCandidatesLabel(rows.length)}</summary>
      <DataTable
        className={styles.cards}
        alignTop
        bleed
        aria-describedby={captionId}
        captionId={captionId}
        columns={OUTSIDE_COLUMNS}
        caption={`Candidates the store ranked (rank in the merged pool) but did not return: ${counted} of ${rows.length} counted in the confidence pool. Score is the hybrid score.`}
      >
        <tbody>
          {rows.map((c) => (
            <tr key={c.memory_id} data-testid="candidate-row" data-in-pool={c.in_pool ? "true" : "false"}>
              <td className={`${numericCellClassName} ${styles.rank}`}>{c.rank}</td>
              <td className={styles.idCell}>
                <MemoryId id={c.memory_id} {...marks(c.memory_id)} />
              </td>
              <td className={styles.summary}>{c.summary ?? <span className={styles.muted}>(no summary)</span>}</td>
              <ScoreCells hybrid={c.hybrid_score} cosine={c.raw_cosine} bm25={c.keyword_score} />
              <td className={`${styles.score} ${c.in_pool ? styles.poolYes : styles.poolNo}`} data-caption="In pool">
                {c.in_pool ? "Yes" : "No"}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </details>
  );
}

/**
 * The returned page of one recall: rank, memory id (copyable), summary, score, raw cosine and BM25,
 * with the rows the selector dropped marked; the candidates outside the page listed below it,
 * collapsed. Each row is `id="result-<memory_id>"` so the selector panel can link to it.
 */
export function ResultsTable({ view }: ResultsTableProps) {
  const titleId = useId();
  const captionId = useId();
  const marks = useMemoryMarks(view);
  const candidates = view.candidates;
  const byId = new Map<string, LoggedCandidate>();
  for (const c of candidates ?? []) byId.set(c.memory_id, c);
  const selectorDropped = new Set(view.selector?.applied ? (view.selector.dropped_memory_ids ?? []) : []);
  const outside = candidates?.filter((c) => !c.returned) ?? [];

  // The page the agent got (results) with the rows the selector removed (dropped_results) shown
  // in place, marked (lib/recall-log/page.ts).
  const rows = displayPage(view).map((r, i) => {
    const candidate = byId.get(r.memory_id);
    const dropped = r.dropped || candidate?.dropped === true || selectorDropped.has(r.memory_id);
    return { result: r, position: r.rank ?? i + 1, candidate, dropped };
  });
  const droppedCount = rows.filter((r) => r.dropped).length;
  const poolSize = view.confidence?.result_count ?? candidates?.length ?? null;

  return (
    <section className={panelClassName} data-testid="results-table" aria-labelledby={titleId}>
      <PanelHead
        title="Results"
        titleId={titleId}
        aside={
          <>
            {rows.length > 0 ? (
              <p className={panelNoteClassName}>
                {droppedCount > 0
                  ? `${plural(rows.length - droppedCount, "result")} kept (the page the agent got), ${droppedCount} dropped by the selector`
                  : `${plural(rows.length, "result")} returned`}
              </p>
            ) : null}
          </>
        }
      />

      {rows.length === 0 ? (
        <EmptyState title={emptyResultsMessage(poolSize, view.status === "error")} data-testid="results-empty">
          {view.status === "error" && view.error ? <p className={panelNoteClassName}>{view.error.message}</p> : null}
        </EmptyState>
      ) : (
        <DataTable
          className={styles.cards}
          alignTop
          bleed
          aria-describedby={captionId}
          captionId={captionId}
          columns={PAGE_COLUMNS}
          caption={`Score is the ${scoreMeaning(view.request?.search_mode)}.${
            view.selector_trace?.score_gap?.cut
              ? " The score-gap selector cut on the Raw cosine column, not on Score (see the Selector panel)."
              : ""
          }`}
        >
          <tbody>
            {rows.map(({ result, position, candidate, dropped }) => (
              <tr
                key={result.memory_id}
                id={resultRowId(result.memory_id)}
                className={`${styles.row} ${dropped ? styles.rowDropped : ""}`}
                data-testid="result-row"
                data-dropped={dropped ? "true" : "false"}
              >
                <td className={`${numericCellClassName} ${styles.rank}`}>{position}</td>
                <td className={styles.idCell}>
                  <MemoryId id={result.memory_id} {...marks(result.memory_id)} />
                </td>
                <td className={styles.summary} data-testid="result-summary">
                  {dropped ? (
                    <span className={styles.droppedTag} data-testid="dropped-tag">
                      <span aria-hidden="true">⊘</span> Dropped by selector
                    </span>
                  ) : null}
                  <span className={styles.summaryText}>{result.summary}</span>
                </td>
                <ScoreCells hybrid={result.score} cosine={candidate?.raw_cosine} bm25={candidate?.keyword_score} />
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}

      {candidates === null ? (
        <p className={panelNoteClassName}>
          This store does not expose its candidate pool, so raw cosine and BM25 per result, and the candidates outside the page,
          are not available.
        </p>
      ) : outside.length > 0 ? (
        <OutsideCandidates candidates={outside} marks={marks} />
      ) : null}
    </section>
  );
}
