/**
 * What-if over history, the pure part: levels of logged recalls recomputed under another profile
 * (from the stored pool, or from the stated values where there is none), tallied as the level
 * mix before and after, the flip matrix and the recalls that flip.
 */
import type { Level } from "@/lib/recall/confidence";
import type { Thresholds } from "@/lib/recall/thresholds";
import { levelFromStated, profileConfidence, type StatedConfidence, type StoredCandidate } from "./level";

export type LevelMix = Record<Level, number>;
/** before → after → count. */
export type FlipMatrix = Record<Level, LevelMix>;

export interface WhatIfFlip {
  recall_id: string;
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
  /** The logged level (the reference rules as answered). */
  level: Level;
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
    private readonly profile: { thresholds: Thresholds; pool_size: number | null },
    private readonly maxFlips = 1000,
  ) {}

  /** The level under the profile for one logged recall. */
  levelOf(r: WhatIfRecall): Level {
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
      const flip = { recall_id: r.id, before: r.level, after, verdict_changed: worth(after) !== worth(r.level) };
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
