import { DataTable, type DataTableProps } from "@/components/ui/table";
import styles from "./evaluate.module.css";

/**
 * Every Evaluate table: a components/ui DataTable whose cells align to their top line, whose rows
 * light up under the pointer, and whose box also scrolls down past 640 px (a set of many queries).
 */
export function EvaluateTable(props: Omit<DataTableProps, "alignTop" | "hoverRows" | "scrollClassName">) {
  return <DataTable alignTop hoverRows scrollClassName={styles.tableScroll} {...props} />;
}
