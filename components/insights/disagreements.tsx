"use client";

/** The two disagreement lists of the selector and the level, newest first (render-only). */
import Link from "next/link";
import type { ReactNode } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { panelNoteClassName } from "@/components/ui/panel";
import { cellNoteClassName, numericCellClassName } from "@/components/ui/table";
import { countOf, formatCount, formatScore, shortenId } from "@/lib/format";
import { drill, recallHref, type DrillScope } from "@/lib/insights/links";
import type { DisagreementList, InsightsResponse, InsightStats } from "@/lib/insights/schema";
import styles from "./insights.module.css";
import { InsightsTable, Section } from "./table-parts";

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
    <InsightsTable columns={["When", "Query", "Level", { label: "Kept · dropped", numeric: true }, "Top hit"]}>
      <tbody>
        {list.items.map((item) => (
          <tr key={item.id} data-testid="disagreement-row" data-kind={kind} data-recall-id={item.id}>
            <td>
              <time dateTime={item.created_at}>{time.format(new Date(item.created_at))}</time>
              <span className={cellNoteClassName}>{item.store}</span>
            </td>
            <td className={styles.queryCell}>
              <Link className={styles.cellLink} href={recallHref(item.id)} title={item.query}>
                <span className={styles.ellipsis}>{item.query}</span>
              </Link>
              <span className={cellNoteClassName}>{item.selector_model ?? "model not stated"}</span>
            </td>
            <td>
              <LevelBadge level={item.level} />
              <span className={cellNoteClassName}>top {formatScore(item.top_score)}</span>
            </td>
            <td className={numericCellClassName}>
              {item.kept ?? "?"} · {item.dropped ?? "?"}
            </td>
            <td className={styles.queryCell}>
              <span className={styles.ellipsis} title={item.top_summary ?? undefined}>
                {item.top_summary ?? "(summary unknown)"}
              </span>
              {item.top_memory_id ? (
                <span className={`${cellNoteClassName} ${styles.mono}`}>{shortenId(item.top_memory_id, 28, 18, 8)}</span>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </InsightsTable>
  );
}

/** "12 recalls, newest 10 shown": a list's total beside its title. */
function ListTotal({ list, children }: { list: DisagreementList; children?: ReactNode }) {
  return (
    <span className={`${styles.small} ${styles.muted}`} data-testid="disagree-total">
      {countOf(list.total, "recall")}
      {list.total > list.items.length ? `, newest ${list.items.length} shown` : ""}
      {children}
    </span>
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
      <Section title="The level rests on a dropped memory" testId="disagree-high" aside={<ListTotal list={high} />}>
        <p className={panelNoteClassName}>
          The memory whose score set the level (top score) was removed by the selector, at any level: the agent got a page the
          level does not describe.
        </p>
        <p className={panelNoteClassName} data-testid="top-dropped-levels">
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
          <ListTotal list={weak}>
            {weak.total > 0 ? (
              <>
                {" · "}
                <Link href={drill.weakKeptAll(scope)}>all in History</Link>
              </>
            ) : null}
          </ListTotal>
        }
      >
        <p className={panelNoteClassName}>The confidence signal said “likely nothing relevant”; the selector dropped nothing.</p>
        <DisagreementTable list={weak} kind="weak_kept_all" empty="None in this range." />
      </Section>
    </>
  );
}
