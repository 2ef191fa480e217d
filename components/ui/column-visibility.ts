/**
 * Which columns of a table a person has hidden: the pure half of the "Columns" control
 * (`ColumnPicker` and `useHiddenColumns` in column-picker.tsx), shared by History and the memory
 * page's recall list. The choice is stored as a JSON array of column ids; whatever is read back is
 * checked against the table's own columns, so an old or hand-edited value can never hide a key
 * column or every column. Unit-tested in column-visibility.test.ts.
 */

export interface ColumnChoice<Id extends string = string> {
  id: Id;
  /** The column's heading, as the checkbox names it. */
  label: string;
  /** A key column (History's query): always shown, its checkbox ticked and disabled. */
  required?: boolean;
}

export type HiddenColumns<Id extends string = string> = ReadonlySet<Id>;

/** The browser-storage key of one table's choice. */
export function hiddenColumnsKey(table: string): string {
  return `recall-inspector:hidden-columns:${table}`;
}

function hideable<Id extends string>(columns: readonly ColumnChoice<Id>[], id: string): id is Id {
  return columns.some((column) => column.id === id && !column.required);
}

/** The hidden set a stored value stands for: known, hideable ids only; nothing hidden when unreadable or when it would hide every column. */
export function readHiddenColumns<Id extends string>(
  stored: string | null,
  columns: readonly ColumnChoice<Id>[],
): HiddenColumns<Id> {
  if (stored === null || stored === "") return new Set();
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return new Set();
  }
  if (!Array.isArray(parsed)) return new Set();
  const hidden = new Set<Id>();
  for (const id of parsed) if (typeof id === "string" && hideable(columns, id)) hidden.add(id);
  return hidden.size >= columns.length ? new Set() : hidden;
}

/** The value to store for a hidden set: the ids in the table's column order (so equal choices store equal strings). */
export function writeHiddenColumns<Id extends string>(hidden: HiddenColumns<Id>, columns: readonly ColumnChoice<Id>[]): string {
  return JSON.stringify(columns.filter((column) => hidden.has(column.id) && !column.required).map((column) => column.id));
}

/**
 * Shows or hides one column. A key column, an unknown id, or hiding the last column shown leaves
 * the set as it was (the same object, so a caller can tell nothing changed).
 */
export function setColumnShown<Id extends string>(
  hidden: HiddenColumns<Id>,
  columns: readonly ColumnChoice<Id>[],
  id: Id,
  shown: boolean,
): HiddenColumns<Id> {
  if (!hideable(columns, id) || hidden.has(id) === !shown) return hidden;
  const next = new Set(hidden);
  if (shown) next.delete(id);
  else next.add(id);
  return columns.every((column) => next.has(column.id)) ? hidden : next;
}

/** Whether a column is shown: every column not hidden, and a key column always. */
export function isColumnShown<Id extends string>(
  hidden: HiddenColumns<Id>,
  columns: readonly ColumnChoice<Id>[],
  id: Id,
): boolean {
  return !hidden.has(id) || !hideable(columns, id);
}

/** The shown columns' ids, in the table's order. */
export function shownColumns<Id extends string>(hidden: HiddenColumns<Id>, columns: readonly ColumnChoice<Id>[]): Id[] {
  return columns.filter((column) => isColumnShown(hidden, columns, column.id)).map((column) => column.id);
}
