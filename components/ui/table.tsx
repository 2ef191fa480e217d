import type { ReactNode, TableHTMLAttributes } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

/** The class for a right-aligned, tabular-figures cell (scores, counts, latencies). */
export const numericCellClassName = styles.numeric;

/**
 * A data table in the dashboard's look, inside a box that scrolls sideways on a narrow screen
 * instead of widening the page.
 */
export function DataTable({ className, children, ...rest }: TableHTMLAttributes<HTMLTableElement> & { children: ReactNode }) {
  return (
    <div className={styles.tableScroll}>
      <table className={classNames(styles.table, className)} {...rest}>
        {children}
      </table>
    </div>
  );
}
