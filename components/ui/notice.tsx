import type { ReactNode } from "react";
import { classNames } from "./class-names";
import styles from "./ui.module.css";

export type NoticeTone = "info" | "success" | "warning" | "error";

export interface NoticeProps {
  tone?: NoticeTone;
  title?: ReactNode;
  /** A button or link that acts on what the notice says (Retry, Undo, Open settings). */
  action?: ReactNode;
  className?: string;
  id?: string;
  /** Overrides the announced role: `note` for a remark that is part of what is shown, not news. */
  role?: "alert" | "status" | "note";
  children?: ReactNode;
  "data-testid"?: string;
}

/**
 * A message in the flow of the page. Errors are announced at once (`role="alert"`); the other
 * tones politely (`role="status"`).
 */
export function Notice({ tone = "info", title, action, className, id, role, children, "data-testid": testId }: NoticeProps) {
  return (
    <div
      id={id}
      className={classNames(styles.notice, className)}
      data-tone={tone}
      role={role ?? (tone === "error" ? "alert" : "status")}
      data-testid={testId}
    >
      <div className={styles.noticeBody}>
        {title ? <p className={styles.noticeTitle}>{title}</p> : null}
        {typeof children === "string" ? <p>{children}</p> : children}
      </div>
      {action}
    </div>
  );
}
