/**
 * What-if over history, the pure part: levels of logged recalls recomputed under another profile
 * (from the stored pool, or from the stated values where there is none), tallied as the level
 * mix before and after, the flip matrix and the recalls that flip.
 */
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { levelFromStated, profileConfidence, type StatedConfidence, type StoredCandidate } from "./level";
import { predictVerdict, recallSignals, statedSignals, type RecallSignals, type VerdictModel } from "./model";

export type LevelMix = Record<Level, number>;
/** before → after → count. */
export type FlipMatrix = Record<Level, LevelMix>;

export interface WhatIfFlip {
  recall_id: string;
  /** The recall's query and its label ("a relevant memory was present": yes/no/unsure), when known. */
  query?: string;
  label?: string | null;
  before: Level;
  after: Level;
  /** The verdict (worth reading vs go external) changed, not just the band. */
  verdict_changed: boolean;
}

export interface WhatIfSummary {
  total: number;
  /** Recalls judged from their stored pool / from stated values. */
  from_pool: number;
  from_stated: number;
  before: LevelMix;
  after: LevelMix;
  flip_matrix: FlipMatrix;
  flips: WhatIfFlip[];
  flip_count: number;
  /** More flips than were listed. */
  truncated: boolean;
}

export interface WhatIfRecall {
  id: string;
  k: number;
  /** The baseline: the store's verdict as the recall logged it (its profile's level), else the reference level. */
  level: Level;
  query?: string;
  label?: string | null;
  /** The verdict's signals as logged (profile_confidence.signals), for a profile with a model. */
  signals?: RecallSignals | null;
  stated: StatedConfidence;
  candidates: readonly StoredCandidate[] | null;
}

const mix = (): LevelMix => ({ high: 0, moderate: 0, low: 0, none: 0 });
const worth = (l: Level) => l === "high" || l === "moderate";

export class WhatIfTally {
  private readonly s: WhatIfSummary = {
    total: 0,
    from_pool: 0,
    from_stated: 0,
    before: mix(),
    after: mix(),
    flip_matrix: { high: mix(), moderate: mix(), low: mix(), none: mix() },
    flips: [],
    flip_count: 0,
    truncated: false,
  };

  constructor(
    private readonly profile: { thresholds: Thresholds; pool_size: number | null; model?: VerdictModel | null },
    private readonly maxFlips = 1000,
  ) {}

  /** The level under the profile for one logged recall. */
  levelOf(r: WhatIfRecall): Level {
    // A profile with a verdict model judges by it: the logged signals (with the keyword arm's
    // evidence), else those the stored pool gives (lib/calibration/README.md "Threshold profiles").
    const model = this.profile.model;
    if (model) {
      const signals = r.signals ?? (r.candidates ? recallSignals(r.candidates, null) : statedSignals(r.stated));
      return predictVerdict(model, signals).level;
    }
    return r.candidates
      ? profileConfidence(r.candidates, r.k, this.profile).level
      : levelFromStated(r.stated, this.profile.thresholds);
  }

  add(r: WhatIfRecall): void {
    const after = this.levelOf(r);
    const s = this.s;
    s.total++;
    s[r.candidates ? "from_pool" : "from_stated"]++;
    s.before[r.level]++;
    s.after[after]++;
    s.flip_matrix[r.level][after]++;
    if (after !== r.level) {
      s.flip_count++;
      // Verdict flips first: those are the ones that change what an agent does.
      const flip: WhatIfFlip = {
        recall_id: r.id,
        ...(r.query !== undefined ? { query: r.query, label: r.label ?? null } : {}),
        before: r.level,
        after,
        verdict_changed: worth(after) !== worth(r.level),
      };
      if (s.flips.length < this.maxFlips) s.flips.push(flip);
      else {
        s.truncated = true;
        if (flip.verdict_changed) {
          const i = s.flips.findIndex((f) => !f.verdict_changed);
          if (i >= 0) s.flips[i] = flip;
        }
      }
    }
  }

  summary(): WhatIfSummary {
    return { ...this.s, flips: [...this.s.flips] };
  }
}
