import { levelRank } from "@/lib/recall/confidence";
import { levelWord, normalizeLevel } from "@/lib/recall-log/format";
import styles from "./level-badge.module.css";

export interface LevelBadgeProps {
  /** A confidence level; null, undefined or an unrecognised value draws the neutral "Unknown" badge. */
  level: string | null | undefined;
  /** "large" for the confidence panel's headline, "small" (default) inline in tables and lists. */
  size?: "small" | "large";
  className?: string;
}

/**
 * The confidence level as a badge: the word, the level colour and a 0–3 bar meter (so colour is
 * never the only cue), with `data-level` = high | moderate | low | none | unknown.
 */
export function LevelBadge({ level, size = "small", className }: LevelBadgeProps) {
  const normalized = normalizeLevel(level);
  const word = levelWord(normalized);
  const filled = normalized === "unknown" ? 0 : levelRank(normalized);
  const classes = [styles.badge, size === "large" ? styles.badgeLarge : "", className ?? ""].filter(Boolean).join(" ");
  return (
    <span
      className={classes}
      data-testid="level-badge"
      data-level={normalized}
      title={normalized === "unknown" ? "Confidence level unknown" : `Confidence level: ${word}`}
    >
      {normalized === "unknown" ? (
        <span className={styles.unknownMark} aria-hidden="true">
          ?
        </span>
      ) : (
        <span className={styles.meter} aria-hidden="true">
          {[1, 2, 3].map((bar) => (
            <span key={bar} className={`${styles.meterBar} ${bar <= filled ? styles.meterBarOn : ""}`} />
          ))}
        </span>
      )}
      {word}
    </span>
  );
}
