import Link from "next/link";
import type { ProfileConfidenceBlock, VerdictCalibration } from "@/lib/calibration/level";
import { LEVEL_MEANINGS } from "@/lib/calibration/model";
import { formatPercent } from "@/lib/format";
import { isWorthReading, triageAdvice } from "@/lib/recall/confidence";
import { normalizeLevel } from "@/lib/recall-log/format";
import type { LoggedRecall } from "@/lib/recall-log/types";
import styles from "./confidence-panel.module.css";
import { LevelBadge } from "./level-badge";
import { REVEAL_VERDICT } from "./reveal";

/** How the store's verdict was calibrated, in words (lib/calibration/README.md "Threshold profiles"). */
export function calibrationWords(c: VerdictCalibration | undefined): string {
  if (!c) return "";
  const how =
    c.method === "labels"
      ? `fitted on ${c.examples} of this store's labels`
      : c.method === "label_free"
        ? "calibrated without labels"
        : "the shipped fit (demo corpus)";
  const relative = c.store_relative
    ? ", measured against this store's own background (calibrated without labels)"
    : c.method === "shipped"
      ? ", not yet calibrated on this store"
      : "";
  const e = c.estimate;
  const estimate = e
    ? `; cross-validated balanced accuracy ${formatPercent(e.balanced_accuracy, 0)}, P(present | high) ${formatPercent(e.p_present_high, 0)}`
    : "";
  return `${how}${relative}${estimate}${c.warning ? `. ${c.warning}` : ""}`;
}

/**
 * The store's verdict, first on the recall: its calibrated probability that something
 * relevant is stored, the level it cuts to and what it means, how it was calibrated; the reference
 * rules' level beside it as what the agent saw, with a sentence when they disagree; and the
 * near-miss caveat where the verdict says worth reading.
 */
export function StoreVerdict({
  view,
  block,
  verdictId,
}: {
  view: LoggedRecall;
  block: ProfileConfidenceBlock & { probability: number };
  verdictId?: string;
}) {
  const level = normalizeLevel(block.level);
  const advice = level === "unknown" ? null : triageAdvice(level);
  const reference = view.confidence?.level ?? null;
  const disagree = reference !== null && isWorthReading(reference) !== isWorthReading(block.level);
  const reranked = view.notices?.some((n) => n.kind === "reranked") ?? false;
  return (
    <>
      <div className={styles.verdict} id={verdictId} data-testid="verdict" data-source="store" {...REVEAL_VERDICT}>
        <LevelBadge level={block.level} size="large" />
        <div className={styles.verdictText} data-testid="store-verdict">
          <p className={styles.advice} data-verdict={advice?.verdict} data-testid="verdict-probability">
            {formatPercent(block.probability, 0)} likely that something relevant is stored
            {level !== "unknown" ? ` — ${LEVEL_MEANINGS[level]}` : ""}.
          </p>
          <p className={styles.caveat} data-testid="verdict-calibration">
            The store&apos;s verdict under profile{" "}
            <Link href={`/profiles?profile=${encodeURIComponent(block.profile)}`}>{block.profile}</Link>:{" "}
            {calibrationWords(block.calibration)}.
          </p>
        </div>
      </div>
      <p className={styles.caveat} data-testid="reference-verdict">
        What the reference rules say — what the agent saw: <LevelBadge level={reference} />
        {disagree
          ? ` They disagree: the reference rules read ${isWorthReading(reference!) ? "worth reading" : "go external"}, the store's verdict ${isWorthReading(block.level) ? "worth reading" : "go external"}.`
          : ""}
      </p>
      {isWorthReading(block.level) ? (
        <p className={styles.caveat} data-testid="near-miss-caveat">
          A near-miss — a question on an adjacent topic that no memory answers — reads like a present one to these signals: a
          bi-encoder&apos;s scores cannot tell them apart without a reranker (
          {reranked ? "this recall was reranked" : "this recall was not reranked"}). Read the results to confirm.
        </p>
      ) : null}
    </>
  );
}
