import type { ReactNode, TableHTMLAttributes } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

/** The class for a right-aligned, tabular-figures cell (scores, counts, latencies). */
export const numericCellClassName = styles.numeric;

/** A second, smaller line under a cell's value ("7 of 10", a store name, an id). */
export const cellNoteClassName = styles.cellNote;

/** One column heading: a plain string, or its label with how the column reads. */
export type DataTableColumn =
  | string
  | {
      label: ReactNode;
      /** Right-aligned, tabular figures (and its cells should take `numericCellClassName`). */
      numeric?: boolean;
      /** Heard by screen readers only (an actions or select column). */
      hidden?: boolean;
      title?: string;
      className?: string;
      /** The React key when the label is not a string. */
      key?: string;
    };

export interface DataTableProps extends TableHTMLAttributes<HTMLTableElement> {
  /** The header row; without it the caller writes its own `<thead>` among the children (a `<caption>` then goes in `caption`, which comes first). */
  columns?: readonly DataTableColumn[];
  /** The table's `<caption>`: small muted text above it, or heard only with `captionHidden`. */
  caption?: ReactNode;
  captionId?: string;
  captionHidden?: boolean;
  /** Cells align to their top line (cells with a second line) instead of their middle. */
  alignTop?: boolean;
  /** Rows light up under the pointer. */
  hoverRows?: boolean;
  /** Dims the rows while a newer answer loads (sets `aria-busy`). */
  busy?: boolean;
  /** Inside a padded panel, the scroll box reaches the panel's edges (20 px each side). */
  bleed?: boolean;
  /** For the scroll box (e.g. a maximum height that scrolls down too). */
  scrollClassName?: string;
  children: ReactNode;
}

/** The `<thead>` of `columns`, each heading `scope="col"`. */
export function DataTableHead({ columns }: { columns: readonly DataTableColumn[] }) {
  return (
    <thead>
      <tr>
        {columns.map((entry, index) => {
          const column = typeof entry === "string" ? { label: entry } : entry;
          return (
            <th
              key={column.key ?? (typeof column.label === "string" ? column.label : String(index))}
              scope="col"
              title={column.title}
              className={classNames(column.numeric && styles.numeric, column.className) || undefined}
            >
              {column.hidden ? <span className={styles.visuallyHidden}>{column.label}</span> : column.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/**
 * A data table in the dashboard's look, inside a box that scrolls sideways on a narrow screen
 * instead of widening the page.
 */
export function DataTable({
  className,
  columns,
  caption,
  captionId,
  captionHidden = false,
  alignTop = false,
  hoverRows = false,
  busy,
  bleed = false,
  scrollClassName,
  children,
  ...rest
}: DataTableProps) {
  return (
    <div className={classNames(styles.tableScroll, scrollClassName)} data-bleed={bleed || undefined}>
      <table
        className={classNames(styles.table, className)}
        data-align={alignTop ? "top" : undefined}
        data-hover={hoverRows || undefined}
        aria-busy={busy || undefined}
        {...rest}
      >
        {caption ? (
          <caption className={captionHidden ? styles.visuallyHidden : styles.tableCaption} id={captionId}>
            {caption}
          </caption>
        ) : null}
        {columns ? <DataTableHead columns={columns} /> : null}
        {children}
      </table>
    </div>
  );
}
