"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { bucketLabel } from "@/lib/insights/format";
import { drill, recallHref, type DrillScope } from "@/lib/insights/links";
import type { DisagreementList, InsightsResponse, InsightStats } from "@/lib/insights/schema";
import { formatScore, shortenId } from "@/lib/format";
import { selectorReasonKindLabel, selectorReasonLabel } from "@/lib/recall/selector-reasons";
import styles from "./insights.module.css";

/** "70% (7 of 10)", or "—" with nothing under it. */
function RateCell({ share, num, den }: { share: number | null; num: number; den: number }) {
  return (
    <td className={styles.num}>
      {formatPercent(share)}
      <span className={styles.sub}>{den > 0 ? `${formatCount(num)} of ${formatCount(den)}` : "no data"}</span>
    </td>
  );
}

function Section({ title, testId, aside, children }: { title: string; testId: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className={`panel ${styles.panel}`} data-testid={testId} aria-label={title}>
      <div className={styles.sectionHead}>
        <h2 className={styles.sectionTitle}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Per store, per model, reasons

export function StoreTable({ rows, scope }: { rows: InsightsResponse["by_store"]; scope: DrillScope }) {
  return (
    <Section title="By store" testId="by-store">
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No recalls in this range.</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Store</th>
                <th scope="col" className={styles.num}>
                  Recalls
                </th>
                <th scope="col" className={styles.num}>
                  Selector ran
                </th>
                <th scope="col" className={styles.num}>
                  Drop rate
                </th>
                <th scope="col" className={styles.num}>
                  Lost ≥ 1
                </th>
                <th scope="col" className={styles.num}>
                  Weak hits
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.store} data-testid="store-row" data-store={row.store}>
                  <td>
                    <Link
                      className={styles.cellLink}
                      href={drill.store(scope, row.store)}
                      title={`Open the recalls of ${row.store} in History`}
                    >
                      {row.store}
                    </Link>
                  </td>
                  <td className={styles.num}>
                    {formatCount(row.recalls)}
                    <span className={styles.sub}>{row.failed > 0 ? `${formatCount(row.failed)} failed` : "none failed"}</span>
                  </td>
                  <RateCell share={row.applied_rate} num={row.applied} den={row.ok} />
                  <RateCell share={row.drop_rate} num={row.dropped} den={row.kept + row.dropped} />
                  <RateCell share={row.lost_any_rate} num={row.lost_any} den={row.applied} />
                  <RateCell
                    share={row.weak_hit_rate}
                    num={row.none + row.low}
                    den={row.high + row.moderate + row.low + row.none}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

export function ModelTable({ rows, scope }: { rows: InsightsResponse["by_model"]; scope: DrillScope }) {
  return (
    <Section title="By selector model" testId="by-model">
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No selector ran or tried to run on any recall in this range.</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className={styles.num}>
                  Ran on
                </th>
                <th scope="col" className={styles.num}>
                  Drop rate
                </th>
                <th scope="col" className={styles.num}>
                  Failure rate
                </th>
                <th scope="col" className={styles.num}>
                  Lost ≥ 1
                </th>
                <th scope="col" className={styles.num}>
                  Weak hits
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.selector_model ?? "(none)"} data-testid="model-row" data-model={row.selector_model ?? ""}>
                  <td>
                    <Link
                      className={styles.cellLink}
                      href={drill.model(scope, row.selector_model)}
                      title={
                        row.selector_model
                          ? `Open the recalls ${row.selector_model} ran on in History`
                          : "History cannot filter by a missing model: this opens every recall the selector ran on"
                      }
                    >
                      {row.selector_model ?? "(model not stated)"}
                    </Link>
                  </td>
                  <td className={styles.num}>{formatCount(row.applied)}</td>
                  <RateCell share={row.drop_rate} num={row.dropped} den={row.kept + row.dropped} />
                  <RateCell share={row.failure_rate} num={row.selector_failed} den={row.tried} />
                  <RateCell share={row.lost_any_rate} num={row.lost_any} den={row.applied} />
                  <RateCell
                    share={row.weak_hit_rate}
                    num={row.none + row.low}
                    den={row.high + row.moderate + row.low + row.none}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

export function ReasonTable({
  rows,
  totals,
  scope,
}: {
  rows: InsightsResponse["not_applied_reasons"];
  totals: InsightStats;
  scope: DrillScope;
}) {
  // "Off by choice" is nobody's failure: it is kept apart from the reasons a selector did not apply.
  const off = rows.filter((row) => row.kind === "off");
  const rest = rows.filter((row) => row.kind !== "off");
  const offCount = off.reduce((n, row) => n + row.recalls, 0);
  return (
    <Section
      title="Why the selector did not apply"
      testId="reasons"
      aside={
        <span className={`${styles.small} ${styles.muted}`}>
          {formatCount(totals.not_applied)} of {countOf(totals.ok, "recall")}
        </span>
      }
    >
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>The selector ran on every recall that did not fail.</p>
      ) : (
        <>
          {rest.length > 0 ? (
            <div className={styles.tableScroll}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">Reason</th>
                    <th scope="col">Kind</th>
                    <th scope="col" className={styles.num}>
                      Recalls
                    </th>
                    <th scope="col" className={styles.num}>
                      Share
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rest.map((row) => (
                    <tr key={row.reason ?? "(none)"} data-testid="reason-row" data-reason={row.reason ?? ""} data-kind={row.kind}>
                      <td>
                        <Link
                          className={styles.cellLink}
                          href={drill.reason(scope, row.reason)}
                          title="Open these recalls in History"
                        >
                          {selectorReasonLabel(row.reason)}
                        </Link>
                        {row.reason ? <span className={`${styles.sub} ${styles.mono}`}>{row.reason}</span> : null}
                      </td>
                      <td>{selectorReasonKindLabel(row.kind)}</td>
                      <td className={styles.num}>{formatCount(row.recalls)}</td>
                      <td className={styles.num}>{formatPercent(row.share)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className={styles.tableEmpty}>Whenever a selector was asked for, it ran.</p>
          )}
          {off.length > 0 ? (
            <p className={styles.note} data-testid="reason-off">
              Off by choice (no selector asked for):{" "}
              <Link href={drill.reason(scope, "disabled")} data-testid="reason-row" data-reason="disabled" data-kind="off">
                {countOf(offCount, "recall")}
              </Link>
              , not a failure.
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------
// Most-dropped memories

export function DroppedTable({ data, scope }: { data: InsightsResponse["most_dropped"]; scope: DrillScope }) {
  return (
    <Section title="Memories dropped most often" testId="most-dropped">
      {data.items.length === 0 ? (
        <p className={styles.tableEmpty}>The selector dropped no listed memory in this range.</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Memory</th>
                <th scope="col">Store</th>
                <th scope="col" className={styles.num}>
                  Dropped
                </th>
                <th scope="col" className={styles.num}>
                  Kept
                </th>
                <th scope="col" className={styles.num}>
                  Drop share
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr
                  key={`${row.store}\u0000${row.memory_id}`}
                  data-testid="dropped-row"
                  data-memory-id={row.memory_id}
                  data-store={row.store}
                >
                  <td className={styles.queryCell}>
                    <Link
                      className={styles.cellLink}
                      href={drill.droppedMemory(scope, row.store, row.memory_id)}
                      title="Open the recalls that dropped this memory in History"
                    >
                      <span className={styles.ellipsis}>{row.summary ?? "(summary unknown)"}</span>
                    </Link>
                    <span className={`${styles.sub} ${styles.mono}`} title={row.memory_id}>
                      {shortenId(row.memory_id, 28, 18, 8)}
                    </span>
                  </td>
                  <td>{row.store}</td>
                  <td className={styles.num} data-testid="dropped-count">
                    {formatCount(row.dropped)}
                  </td>
                  <td className={styles.num} data-testid="kept-count">
                    {formatCount(row.kept)}
                  </td>
                  <td className={styles.num}>{formatPercent(row.drop_share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.note} data-testid="cap-note">
        Counted from each recall’s list of dropped ids, which stops at 20, so a memory can be dropped more often than shown
        {data.unlisted_drops > 0 ? <> ({countOf(data.unlisted_drops, "drop")} in this range are not itemized)</> : null}. Kept =
        the selector ran, the memory was on the page and stayed.
      </p>
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------
// Disagreements

function DisagreementTable({
  list,
  kind,
  empty,
}: {
  list: DisagreementList;
  kind: "top_dropped" | "weak_kept_all";
  empty: string;
}) {
  if (list.items.length === 0) return <p className={styles.tableEmpty}>{empty}</p>;
  const time = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <div className={styles.tableScroll}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Query</th>
            <th scope="col">Level</th>
            <th scope="col" className={styles.num}>
              Kept · dropped
            </th>
            <th scope="col">Top hit</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((item) => (
            <tr key={item.id} data-testid="disagreement-row" data-kind={kind} data-recall-id={item.id}>
              <td>
                <time dateTime={item.created_at}>{time.format(new Date(item.created_at))}</time>
                <span className={styles.sub}>{item.store}</span>
              </td>
              <td className={styles.queryCell}>
                <Link className={styles.cellLink} href={recallHref(item.id)} title={item.query}>
                  <span className={styles.ellipsis}>{item.query}</span>
                </Link>
                <span className={styles.sub}>{item.selector_model ?? "model not stated"}</span>
              </td>
              <td>
                <LevelBadge level={item.level} />
                <span className={styles.sub}>top {formatScore(item.top_score)}</span>
              </td>
              <td className={styles.num}>
                {item.kept ?? "?"} · {item.dropped ?? "?"}
              </td>
              <td className={styles.queryCell}>
                <span className={styles.ellipsis} title={item.top_summary ?? undefined}>
                  {item.top_summary ?? "(summary unknown)"}
                </span>
                {item.top_memory_id ? (
                  <span className={`${styles.sub} ${styles.mono}`}>{shortenId(item.top_memory_id, 28, 18, 8)}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Disagreements({
  data,
  totals,
  scope,
}: {
  data: InsightsResponse["disagreements"];
  totals: InsightStats;
  scope: DrillScope;
}) {
  const { top_dropped: high, weak_kept_all: weak } = data;
  const byLevel = {
    high: totals.high_top_dropped,
    moderate: totals.moderate_top_dropped,
    low: totals.low_top_dropped,
    none: totals.none_top_dropped,
  };
  return (
    <>
      <Section
        title="The level rests on a dropped memory"
        testId="disagree-high"
        aside={
          <span className={`${styles.small} ${styles.muted}`} data-testid="disagree-total">
            {countOf(high.total, "recall")}
            {high.total > high.items.length ? `, newest ${high.items.length} shown` : ""}
          </span>
        }
      >
        <p className={styles.note}>
          The memory whose score set the level (top score) was removed by the selector, at any level: the agent got a page the
          level does not describe.
        </p>
        <p className={styles.note} data-testid="top-dropped-levels">
          By level:{" "}
          {(["high", "moderate", "low", "none"] as const).map((level, i) => (
            <span key={level}>
              {i > 0 ? " · " : null}
              <Link href={drill.topDropped(scope, level)} data-testid={`top-dropped-${level}`}>
                {level} {formatCount(byLevel[level])}
              </Link>
            </span>
          ))}
        </p>
        <DisagreementTable
          list={high}
          kind="top_dropped"
          empty="None in this range: the selector never dropped the memory a level rested on."
        />
      </Section>
      <Section
        title="Confidence none or low, selector kept everything"
        testId="disagree-weak"
        aside={
          <span className={`${styles.small} ${styles.muted}`} data-testid="disagree-total">
            {countOf(weak.total, "recall")}
            {weak.total > weak.items.length ? `, newest ${weak.items.length} shown` : ""}
            {weak.total > 0 ? (
              <>
                {" · "}
                <Link href={drill.weakKeptAll(scope)}>all in History</Link>
              </>
            ) : null}
          </span>
        }
      >
        <p className={styles.note}>The confidence signal said “likely nothing relevant”; the selector dropped nothing.</p>
        <DisagreementTable list={weak} kind="weak_kept_all" empty="None in this range." />
      </Section>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The series as a table (the charts' text alternative, and a drill-down per bucket)

export function BucketTable({ data, scope }: { data: InsightsResponse; scope: DrillScope }) {
  const rows = data.series.filter((p) => p.recalls > 0);
  return (
    <details className={styles.details} data-testid="bucket-table">
      <summary>
        Every {data.bucket} as a table ({countOf(rows.length, `${data.bucket} with recalls`, `${data.bucket}s with recalls`)})
      </summary>
      {rows.length === 0 ? (
        <p className={styles.tableEmpty}>No bucket has recalls.</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{data.bucket === "week" ? "Week" : data.bucket === "day" ? "Day" : "Hour"}</th>
                <th scope="col" className={styles.num}>
                  Recalls
                </th>
                <th scope="col" className={styles.num}>
                  Selector ran
                </th>
                <th scope="col" className={styles.num}>
                  Drop rate
                </th>
                <th scope="col" className={styles.num}>
                  Lost ≥ 1
                </th>
                <th scope="col" className={styles.num}>
                  Weak hits
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.local_start} data-testid="bucket-row" data-bucket={p.local_start}>
                  <td>
                    <Link className={styles.cellLink} href={drill.bucket(scope, p.start, p.end)}>
                      {bucketLabel(p.local_start, data.bucket)}
                    </Link>
                    {p.partial ? <span className={styles.partialMark}>(part)</span> : null}
                  </td>
                  <td className={styles.num}>
                    {formatCount(p.recalls)}
                    {p.failed > 0 ? <span className={styles.sub}>{formatCount(p.failed)} failed</span> : null}
                  </td>
                  <RateCell share={p.applied_rate} num={p.applied} den={p.ok} />
                  <RateCell share={p.drop_rate} num={p.dropped} den={p.kept + p.dropped} />
                  <RateCell share={p.lost_any_rate} num={p.lost_any} den={p.applied} />
                  <RateCell share={p.weak_hit_rate} num={p.none + p.low} den={p.high + p.moderate + p.low + p.none} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
