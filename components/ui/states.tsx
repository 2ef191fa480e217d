import type { ReactNode } from "react";
import { apiErrorCodeText, apiErrorWords } from "@/lib/errors/api-error-words";
import { Button } from "./button";
import { classNames } from "./class-names";
import { Notice } from "./notice";
import styles from "./ui.module.css";

/** While something loads: says what, with a spinner that stops for reduced motion. */
export function LoadingState({
  children = "Loading…",
  className,
  "data-testid": testId,
}: {
  children?: ReactNode;
  className?: string;
  "data-testid"?: string;
}) {
  return (
    <p className={classNames(styles.state, className)} role="status" aria-live="polite" data-testid={testId}>
      <span className={styles.spinner} aria-hidden="true" />
      {children}
    </p>
  );
}

/** Nothing to show: a title that says so and, in `children`, what would make something appear. */
export function EmptyState({
  title,
  children,
  className,
  "data-testid": testId,
}: {
  title: ReactNode;
  children?: ReactNode;
  className?: string;
  "data-testid"?: string;
}) {
  return (
    <div className={classNames(styles.state, className)} data-testid={testId}>
      <strong className={styles.stateTitle}>{title}</strong>
      {children}
    </div>
  );
}

/**
 * An API failure as a sentence a person can act on, with the envelope's code and status as small
 * secondary text (for a bug report, or a search of the docs). The words: lib/errors/api-error-words.ts.
 */
export function ApiErrorText({ error }: { error: unknown }) {
  const words = apiErrorWords(error);
  const code = apiErrorCodeText(words);
  return (
    <>
      {words.sentence}
      {code ? (
        <>
          {" "}
          <small className={styles.errorCode} data-testid="error-code">
            ({code})
          </small>
        </>
      ) : null}
    </>
  );
}

/**
 * A failed load: what went wrong in words (`ApiErrorText`) and, when the caller can try again, a
 * Retry button.
 */
export function ErrorState({
  error,
  title = "Could not load this.",
  onRetry,
  retryLabel = "Retry",
  className,
  "data-testid": testId,
}: {
  error: unknown;
  title?: ReactNode;
  onRetry?: () => void;
  retryLabel?: string;
  className?: string;
  "data-testid"?: string;
}) {
  return (
    <Notice
      tone="error"
      title={title}
      className={className}
      data-testid={testId}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {retryLabel}
          </Button>
        ) : null
      }
    >
      <p>
        <ApiErrorText error={error} />
      </p>
    </Notice>
  );
}
