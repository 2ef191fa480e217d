import type { ReactNode } from "react";
import { classNames } from "./class-names";
import styles from "./panel.module.css";

/** A page's panels, one under the other (16 px apart). */
export const pageStackClassName = styles.stack;

/** A panel: the global box (surface, border, padding) laid out as a column of its parts. */
export const panelClassName = `panel ${styles.panel}`;

/** A column of parts without the box (a form or a figure inside a panel). */
export const panelColumnClassName = styles.panel;

/** A small muted line under a panel's content (what a figure means, where a number comes from). */
export const panelNoteClassName = styles.note;

/** The head row's class, for a head PanelHead does not fit (several controls, a heading level of its own). */
export const panelHeadClassName = styles.head;

/** The panel title's class, for a heading that is not in a PanelHead. */
export const panelTitleClassName = styles.title;

/** A heading inside a panel, one step below its title ("Why this level", "Dropped ids"). */
export const panelSubheadingClassName = styles.subheading;

/** A panel's head: its title on the left and, on the right, a count, a hint or a control. */
export function PanelHead({
  title,
  titleId,
  aside,
  className,
}: {
  title: ReactNode;
  titleId?: string;
  aside?: ReactNode;
  className?: string;
}) {
  return (
    <div className={classNames(styles.head, className)}>
      <h2 className={styles.title} id={titleId}>
        {title}
      </h2>
      {aside}
    </div>
  );
}
