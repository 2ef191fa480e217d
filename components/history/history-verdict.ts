/**
 * What History's level column says (pure, unit-tested in history-verdict.test.ts): the store's
 * verdict first — the level the store's profile gave when the recall was logged, with its
 * calibrated probability where the profile has a verdict model — and the reference level beside
 * it as "reference: X", what the agent saw. Where the reference rules judged the recall (no
 * profile), the verdict is the reference level, said once (lib/calibration/README.md "Threshold profiles").
 */
import { formatPercent } from "@/lib/format";
import { isWorthReading } from "@/lib/recall/confidence";
import { levelWord } from "@/lib/recall-log/format";
import type { HistoryItem } from "@/lib/recall-log/history";

export interface VerdictCell {
  /** The badge's level: the store's verdict (null for a failed recall). */
  level: string | null;
  /** Who gave it: the store's threshold profile, the reference rules, or nobody (the recall failed). */
  by: "profile" | "reference" | "failed";
  /** The calibrated probability, "82%", where the profile's verdict model gave one. */
  probability: string | null;
  /** The words beside the badge: "reference: moderate" under a profile, "reference rules" without one. */
  note: string | null;
  /** The cell's tooltip: who judged, and the reference level in a sentence. */
  title: string;
}

type VerdictSource = Pick<HistoryItem, "status" | "level" | "profile_name" | "profile_level" | "profile_probability">;

const lower = (level: string | null) => levelWord(level).toLowerCase();

/** The level column of one row: the verdict's badge, its probability, and the reference beside it. */
export function verdictCell(item: VerdictSource): VerdictCell {
  if (item.status === "error") {
    return { level: null, by: "failed", probability: null, note: null, title: "The recall failed: no level was given." };
  }
  if (item.profile_name === null || item.profile_level === null) {
    return {
      level: item.level,
      by: "reference",
      probability: null,
      note: "reference rules",
      title: `No profile of the store judged this recall: its verdict is the reference rules' level, ${lower(item.level)}, what the agent saw.`,
    };
  }
  const p = item.profile_probability;
  const probability = p === null || p === undefined || !Number.isFinite(p) ? null : formatPercent(p, 0);
  const disagree = item.level !== null && isWorthReading(item.level) !== isWorthReading(item.profile_level);
  return {
    level: item.profile_level,
    by: "profile",
    probability,
    note: `reference: ${lower(item.level)}`,
    title:
      `The store's verdict under profile ${item.profile_name}: ${lower(item.profile_level)}` +
      `${probability ? ` (${probability} likely that something relevant is stored)` : ""}. ` +
      `The reference rules said ${lower(item.level)}, what the agent saw` +
      `${disagree ? `; they disagree (${isWorthReading(item.profile_level) ? "worth reading" : "go external"} vs ${isWorthReading(item.level) ? "worth reading" : "go external"})` : ""}.`,
  };
}
