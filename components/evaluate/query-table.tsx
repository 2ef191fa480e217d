"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { LevelBadge } from "@/components/recall/level-badge";
import { buttonClassName } from "@/components/ui/button";
import { panelClassName } from "@/components/ui/panel";
import { numericCellClassName } from "@/components/ui/table";
import { parseSortDir, parseSortKey, sortItems, type SortKey } from "@/lib/eval/report-table";
import type { EvalRunItem } from "@/lib/eval/run-schemas";
import { EvaluateTable } from "./evaluate-table";
import styles from "./evaluate.module.css";
import { fmt } from "./run-status";

const COLUMNS: { key: SortKey; label: string; num?: boolean }[] = [
  { key: "position", label: "#", num: true },
  { key: "query", label: "Query" },
  { key: "kind", label: "Kind" },
  { key: "first_relevant_rank", label: "First relevant rank", num: true },
  { key: "level", label: "Level" },
  { key: "top_score", label: "Top score", num: true },
  { key: "prominence", label: "Prominence", num: true },
];

/** The per-query table: sortable (the sort lives in the URL), each row opens its logged recall. */
export function QueryTable({ items, runId }: { items: readonly EvalRunItem[]; runId: string }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const by = parseSortKey(params.get("sort"));
  const dir = parseSortDir(params.get("dir"));
  const sorted = useMemo(() => sortItems(items, by, dir), [items, by, dir]);

  const sortBy = (key: SortKey) => {
    const next = new URLSearchParams(params);
    next.set("sort", key);
    next.set("dir", key === by && dir === "asc" ? "desc" : "asc");
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  return (
    <section className={`${panelClassName} ${styles.headings}`} aria-labelledby="queries-h">
      <div className={styles.row} style={{ justifyContent: "space-between" }}>
        <h2 id="queries-h">Queries ({items.length})</h2>
        <span className={styles.row} style={{ gap: 8 }}>
          <a className={buttonClassName()} href={`/api/eval-runs/${runId}/export?format=csv`} download>
            Export CSV
          </a>
          <a className={buttonClassName()} href={`/api/eval-runs/${runId}/export?format=jsonl`} download>
            Export JSONL
          </a>
        </span>
      </div>
      {items.length === 0 ? (
        <p className={styles.muted}>No query has run yet.</p>
      ) : (
        <EvaluateTable data-testid="query-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.num ? numericCellClassName : undefined}
                  aria-sort={c.key === by ? (dir === "asc" ? "ascending" : "descending") : "none"}
                >
                  <button type="button" className={styles.sortButton} onClick={() => sortBy(c.key)}>
                    {c.label}
                    {c.key === by ? (dir === "asc" ? " ▲" : " ▼") : ""}
                  </button>
                </th>
              ))}
              <th scope="col">Expected ids</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((item) => (
              <tr key={item.position} data-testid="query-row">
                <td className={numericCellClassName}>{item.position + 1}</td>
                <td>
                  <Link href={`/recalls/${item.recall_id}`} title="Open this query's recall">
                    {item.query}
                  </Link>
                  {item.status === "error" ? <span className={`${styles.small} ${styles.negative}`}> (failed)</span> : null}
                </td>
                <td className={styles.small}>{item.kind ?? "—"}</td>
                <td className={numericCellClassName}>
                  {item.relevant.length === 0 ? (
                    <span className={styles.muted}>n/a</span>
                  ) : (
                    (item.first_relevant_rank ?? <span className={styles.negative}>missed</span>)
                  )}
                </td>
                <td>
                  <LevelBadge level={item.level} />
                </td>
                <td className={numericCellClassName}>{fmt(item.top_score)}</td>
                <td className={numericCellClassName}>{fmt(item.prominence)}</td>
                <td className={styles.ids}>
                  {item.relevant.length ? item.relevant.join(" ") : <span className={styles.muted}>nothing stored</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </EvaluateTable>
      )}
    </section>
  );
}
