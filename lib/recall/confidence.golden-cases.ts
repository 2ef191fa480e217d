/**
 * The golden and regression cases of docs/reference-rules.md ("Golden cases"), reproduced
 * exactly: the pool in, the reference's wire block out. Data for confidence.test.ts.
 */
import type { RecallConfidenceBlock } from "./confidence-types";

/** Two pools the cases share: one clear hit over its background, and a flat one. */
export const PRESENT = [0.919, 0.676, 0.67, 0.615, 0.608, 0.537, 0.52, 0.5];
export const ABSENT = [0.645, 0.572, 0.572, 0.561, 0.56, 0.531, 0.51, 0.5];

export interface GoldenCase extends RecallConfidenceBlock {
  id: string;
  hybrid: number[];
  semantic: number[] | null;
}

/** Golden case S-1's wire block (the PRESENT pool): also the example answers' confidence. */
export const S1_PRESENT_BLOCK = {
  level: "high",
  top_score: 0.919,
  prominence: 0.559,
  relative_margin: 4.989,
  result_count: 8,
  rationale:
    "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
} satisfies RecallConfidenceBlock;

const F2_PREFIX = "Keyword-only pool: top hit sits ";
const F2_MID = " background-std-devs above the candidate-pool background; ";

// Every golden case and regression vector of docs/reference-rules.md ("Golden cases"), with
// the full computed output (the right-hand column) and the exact rationale text.
export const GOLDEN_CASES: GoldenCase[] = [
  {
    id: "F-1",
    hybrid: [],
    semantic: null,
    level: "none",
    top_score: null,
    prominence: null,
    relative_margin: null,
    result_count: 0,
    rationale: "No candidates retrieved — likely nothing relevant in this context.",
  },
  {
    id: "F-2",
    hybrid: [0.8],
    semantic: null,
    level: "moderate",
    top_score: 0.8,
    prominence: null,
    relative_margin: null,
    result_count: 1,
    rationale: "Single candidate — no background distribution to assess separation.",
  },
  {
    id: "F-3",
    hybrid: [0.95, 0.3, 0.31, 0.29, 0.3],
    semantic: null,
    level: "high",
    top_score: 0.95,
    prominence: null,
    relative_margin: 91.924,
    result_count: 5,
    rationale: `${F2_PREFIX}91.92${F2_MID}clear separation from background.`,
  },
  {
    id: "F-4",
    hybrid: [0.5, 0.5, 0.5, 0.5],
    semantic: null,
    level: "none",
    top_score: 0.5,
    prominence: null,
    relative_margin: 0,
    result_count: 4,
    rationale: `${F2_PREFIX}0.00${F2_MID}top hit indistinguishable from background — likely nothing relevant.`,
  },
  {
    id: "F-5",
    hybrid: [0.2, 0.05, 0.06, 0.04, 0.05],
    semantic: null,
    level: "high",
    top_score: 0.2,
    prominence: null,
    relative_margin: 21.213,
    result_count: 5,
    rationale: `${F2_PREFIX}21.21${F2_MID}clear separation from background.`,
  },
  {
    id: "F-6",
    hybrid: [0.95, 0.8, 0.81, 0.79, 0.8],
    semantic: null,
    level: "high",
    top_score: 0.95,
    prominence: null,
    relative_margin: 21.213,
    result_count: 5,
    rationale: `${F2_PREFIX}21.21${F2_MID}clear separation from background.`,
  },
  { id: "S-1 PRESENT", hybrid: [], semantic: PRESENT, ...S1_PRESENT_BLOCK },
  {
    id: "S-2 ABSENT",
    hybrid: [],
    semantic: ABSENT,
    level: "low",
    top_score: 0.645,
    prominence: 0.186,
    relative_margin: 3.656,
    result_count: 8,
    rationale:
      "Top semantic cosine 0.65, prominence 0.19 above the candidate-pool mean (0.54); top hit is weak — relevance uncertain, consider going external.",
  },
  {
    id: "S-3",
    hybrid: [],
    semantic: [0.6, 0.55, 0.55, 0.55, 0.55, 0.55],
    level: "none",
    top_score: 0.6,
    prominence: 0.091,
    relative_margin: null,
    result_count: 6,
    rationale:
      "Top semantic cosine 0.60, prominence 0.09 above the candidate-pool mean (0.55); top hit barely exceeds the background — likely nothing relevant.",
  },
  {
    id: "S-4",
    hybrid: [],
    semantic: [0.9, 0.88, 0.88, 0.87, 0.88],
    level: "moderate",
    top_score: 0.9,
    prominence: 0.026,
    relative_margin: 5.196,
    result_count: 5,
    rationale: "Top semantic cosine 0.90, prominence 0.03 above the candidate-pool mean (0.88); top hit is a plausible match.",
  },
  {
    id: "S-5",
    hybrid: [0.6, 0.6, 0.6, 0.6],
    semantic: PRESENT,
    level: "high",
    top_score: 0.919,
    prominence: 0.559,
    relative_margin: 4.989,
    result_count: 4,
    rationale:
      "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
  },
  {
    id: "S-6",
    hybrid: [],
    semantic: [0.91],
    level: "moderate",
    top_score: 0.91,
    prominence: null,
    relative_margin: null,
    result_count: 1,
    rationale: "Single semantic candidate (cosine 0.91); single strong absolute match, no background to corroborate.",
  },
  {
    id: "S-7",
    hybrid: [],
    semantic: [0.4],
    level: "low",
    top_score: 0.4,
    prominence: null,
    relative_margin: null,
    result_count: 1,
    rationale: "Single semantic candidate (cosine 0.40); single candidate; absolute match strength is modest.",
  },
  {
    id: "S-8",
    hybrid: [],
    semantic: [0.873, 0.4, 0.39, 0.38],
    level: "high",
    top_score: 0.873,
    prominence: 1.238,
    relative_margin: 59.155,
    result_count: 4,
    rationale:
      "Top semantic cosine 0.87, prominence 1.24 above the candidate-pool mean (0.39); top hit is a strong, clearly-separated match.",
  },
  {
    id: "S-9",
    hybrid: [],
    semantic: [0.05, -0.2, -0.3, -0.25],
    level: "none",
    top_score: 0.05,
    prominence: null,
    relative_margin: 7.348,
    result_count: 4,
    rationale:
      "Top semantic cosine 0.05, prominence n/a above the candidate-pool mean (-0.25); top hit barely exceeds the background — likely nothing relevant.",
  },
  {
    id: "S-10",
    hybrid: [],
    semantic: [0.9, -0.1, 0.0, -0.05],
    level: "high",
    top_score: 0.9,
    prominence: null,
    relative_margin: 23.27,
    result_count: 4,
    rationale:
      "Top semantic cosine 0.90, prominence n/a above the candidate-pool mean (-0.05); top hit is a strong, clearly-separated match.",
  },
  {
    id: "S-11",
    hybrid: [],
    semantic: [0.3, 0.1, 0.1, 0.1],
    level: "moderate",
    top_score: 0.3,
    prominence: 2.0,
    relative_margin: null,
    result_count: 4,
    rationale: "Top semantic cosine 0.30, prominence 2.00 above the candidate-pool mean (0.10); top hit is a plausible match.",
  },
  // "More regression vectors"
  {
    id: "R [0.9,0.5]",
    hybrid: [],
    semantic: [0.9, 0.5],
    level: "high",
    top_score: 0.9,
    prominence: 0.8,
    relative_margin: null,
    result_count: 2,
    rationale:
      "Top semantic cosine 0.90, prominence 0.80 above the candidate-pool mean (0.50); top hit is a strong, clearly-separated match.",
  },
  {
    id: "R [0.7,0.7,0.7]",
    hybrid: [],
    semantic: [0.7, 0.7, 0.7],
    level: "none",
    top_score: 0.7,
    prominence: 0.0,
    relative_margin: null,
    result_count: 3,
    rationale:
      "Top semantic cosine 0.70, prominence 0.00 above the candidate-pool mean (0.70); top hit barely exceeds the background — likely nothing relevant.",
  },
  {
    id: "R [0.85,0.84,0.84]",
    hybrid: [],
    semantic: [0.85, 0.84, 0.84],
    level: "moderate",
    top_score: 0.85,
    prominence: 0.012,
    relative_margin: null,
    result_count: 3,
    rationale: "Top semantic cosine 0.85, prominence 0.01 above the candidate-pool mean (0.84); top hit is a plausible match.",
  },
  {
    id: "R unsorted [0.5,0.919,0.6]",
    hybrid: [],
    semantic: [0.5, 0.919, 0.6],
    level: "high",
    top_score: 0.919,
    prominence: 0.671,
    relative_margin: 7.38,
    result_count: 3,
    rationale:
      "Top semantic cosine 0.92, prominence 0.67 above the candidate-pool mean (0.55); top hit is a strong, clearly-separated match.",
  },
  {
    id: "R [0.9,0.3] boundary",
    hybrid: [0.9, 0.3],
    semantic: null,
    level: "high",
    top_score: 0.9,
    prominence: null,
    relative_margin: 2.0,
    result_count: 2,
    rationale: `${F2_PREFIX}2.00${F2_MID}clear separation from background.`,
  },
  {
    id: "R [0.5,0,0]",
    hybrid: [0.5, 0.0, 0.0],
    semantic: null,
    level: "low",
    top_score: 0.5,
    prominence: null,
    relative_margin: 0.5,
    result_count: 3,
    rationale: `${F2_PREFIX}0.50${F2_MID}weak separation — relevance uncertain.`,
  },
  {
    id: "R [0,0,0]",
    hybrid: [0, 0, 0],
    semantic: null,
    level: "none",
    top_score: 0,
    prominence: null,
    relative_margin: 0,
    result_count: 3,
    rationale: `${F2_PREFIX}0.00${F2_MID}top hit indistinguishable from background — likely nothing relevant.`,
  },
  {
    id: "R [0.2,-0.1,-0.1]",
    hybrid: [0.2, -0.1, -0.1],
    semantic: null,
    level: "high",
    top_score: 0.2,
    prominence: null,
    relative_margin: 3.0,
    result_count: 3,
    rationale: `${F2_PREFIX}3.00${F2_MID}clear separation from background.`,
  },
];
