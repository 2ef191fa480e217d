/**
 * Threshold profiles for the confidence rules.
 *
 * The reference service hard-codes these as module constants (spec "Constants"); the dashboard
 * makes them a named profile so a store whose embedding model lives at another cosine scale can
 * carry its own calibration. The rules themselves never change, and `DEFAULT_THRESHOLDS`
 * reproduces the reference exactly.
 *
 * Keys are snake_case so a profile is the same object in TypeScript, on the wire and in storage.
 */
import { z } from "zod";
import { issuesFromZod, ThresholdsError, type RecallIssue } from "./errors";

export interface Thresholds {
  /** Profile name, reported as `confidence.thresholds`. "default" is the reference profile. */
  name: string;
  /** prominence ≥ this (and top ≥ `abs_moderate_cosine`) → high. */
  high_prominence: number;
  /** prominence ≥ this (and top ≥ `abs_low_cosine`) → moderate. */
  moderate_prominence: number;
  /** prominence ≥ this → low, else none. */
  low_prominence: number;
  /** Near-duplicate floor; "high" absolute band; single semantic candidate → moderate. */
  strong_abs_cosine: number;
  /** Absolute guard for high; "moderate" absolute band. */
  abs_moderate_cosine: number;
  /** Absolute guard for moderate; "low" absolute band. */
  abs_low_cosine: number;
  /** The background mean must be strictly greater than this to use prominence. */
  bg_eps: number;
  /** A background std ≤ this counts as flat (also the |mean| guard of the fallback relative gap). */
  std_eps: number;
  /** Fallback z-score bands: z ≥ high → high, ≥ moderate → moderate, ≥ low → low, else none. */
  z_high: number;
  z_moderate: number;
  z_low: number;
}

export type ThresholdKey = Exclude<keyof Thresholds, "name">;

export const DEFAULT_PROFILE_NAME = "default";
export const CUSTOM_PROFILE_NAME = "custom";

/** The reference service's constants (spec "Constants"). */
export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  name: DEFAULT_PROFILE_NAME,
  high_prominence: 0.4,
  moderate_prominence: 0.25,
  low_prominence: 0.12,
  strong_abs_cosine: 0.85,
  abs_moderate_cosine: 0.5,
  abs_low_cosine: 0.3,
  bg_eps: 0.001,
  std_eps: 1e-9,
  z_high: 2.0,
  z_moderate: 1.0,
  z_low: 0.3,
});

export const THRESHOLD_KEYS: readonly ThresholdKey[] = [
  "high_prominence",
  "moderate_prominence",
  "low_prominence",
  "strong_abs_cosine",
  "abs_moderate_cosine",
  "abs_low_cosine",
  "bg_eps",
  "std_eps",
  "z_high",
  "z_moderate",
  "z_low",
];

/**
 * Sane ranges, inclusive. Prominence and z are ratios ≥ 0 (the top is the pool maximum, so it
 * never sits below the background mean); cosines live in [-1, 1]. `std_eps` must stay positive
 * so that z-scores stay finite. A prominence threshold may sit at or below 0: that band then
 * admits every usable pool, and its absolute guard alone decides — how a calibrated profile turns
 * the rules into a top-cosine threshold for a model whose prominence does not separate
 * (lib/calibration/README.md "Threshold profiles").
 */
export const THRESHOLD_RANGES: Readonly<Record<ThresholdKey, readonly [number, number]>> = Object.freeze({
  high_prominence: [-1, 1000],
  moderate_prominence: [-1, 1000],
  low_prominence: [-1, 1000],
  strong_abs_cosine: [-1, 1],
  abs_moderate_cosine: [-1, 1],
  abs_low_cosine: [-1, 1],
  bg_eps: [0, 1],
  std_eps: [1e-15, 1],
  z_high: [0, 1000],
  z_moderate: [0, 1000],
  z_low: [0, 1000],
});

const PROFILE_NAME_MAX = 64;

const nameSchema = z.string().trim().min(1, "must not be empty").max(PROFILE_NAME_MAX);
// z.number() rejects NaN and ±Infinity in zod 4.
const valueSchema = z.number({ error: "must be a finite number" });

/**
 * A user-supplied partial profile: any subset of the keys. Unknown keys are rejected so that a
 * misspelt threshold is an error, not a silent no-op.
 */
export const ThresholdsOverrideSchema = z.strictObject({
  name: nameSchema.optional(),
  high_prominence: valueSchema.optional(),
  moderate_prominence: valueSchema.optional(),
  low_prominence: valueSchema.optional(),
  strong_abs_cosine: valueSchema.optional(),
  abs_moderate_cosine: valueSchema.optional(),
  abs_low_cosine: valueSchema.optional(),
  bg_eps: valueSchema.optional(),
  std_eps: valueSchema.optional(),
  z_high: valueSchema.optional(),
  z_moderate: valueSchema.optional(),
  z_low: valueSchema.optional(),
});

export type ThresholdsOverride = z.infer<typeof ThresholdsOverrideSchema>;

/** A complete stored profile; ranges and band order are checked too. */
export const ThresholdsProfileSchema = z
  .strictObject({
    name: nameSchema,
    high_prominence: valueSchema,
    moderate_prominence: valueSchema,
    low_prominence: valueSchema,
    strong_abs_cosine: valueSchema,
    abs_moderate_cosine: valueSchema,
    abs_low_cosine: valueSchema,
    bg_eps: valueSchema,
    std_eps: valueSchema,
    z_high: valueSchema,
    z_moderate: valueSchema,
    z_low: valueSchema,
  })
  .superRefine((profile, ctx) => {
    for (const issue of validateThresholds(profile)) {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  });

/** Every problem with a complete profile (empty when it is valid). Never throws. */
export function validateThresholds(t: Thresholds): RecallIssue[] {
  const issues: RecallIssue[] = [];
  if (typeof t.name !== "string" || t.name.trim().length === 0 || t.name.length > PROFILE_NAME_MAX) {
    issues.push({ path: ["name"], message: `must be a non-empty string of at most ${PROFILE_NAME_MAX} characters` });
  }
  const finite = new Set<ThresholdKey>();
  for (const key of THRESHOLD_KEYS) {
    const value: unknown = t[key];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      issues.push({ path: [key], message: "must be a finite number" });
      continue;
    }
    finite.add(key);
    const [lo, hi] = THRESHOLD_RANGES[key];
    if (value < lo || value > hi) issues.push({ path: [key], message: `must be between ${lo} and ${hi}, got ${value}` });
  }
  const order = (a: ThresholdKey, b: ThresholdKey, strict: boolean): void => {
    if (!finite.has(a) || !finite.has(b)) return;
    const ok = strict ? t[a] > t[b] : t[a] >= t[b];
    if (!ok) issues.push({ path: [a], message: `${a} (${t[a]}) must be ${strict ? ">" : "≥"} ${b} (${t[b]})` });
  };
  order("high_prominence", "moderate_prominence", true);
  order("moderate_prominence", "low_prominence", true);
  order("z_high", "z_moderate", true);
  order("z_moderate", "z_low", true);
  order("strong_abs_cosine", "abs_moderate_cosine", false);
  order("abs_moderate_cosine", "abs_low_cosine", false);
  return issues;
}

function sameValuesAsDefault(t: Thresholds): boolean {
  return THRESHOLD_KEYS.every((k) => t[k] === DEFAULT_THRESHOLDS[k]);
}

/**
 * Merges a user-supplied partial profile over the defaults and validates the result.
 *
 * - `undefined`/`null` → the default profile.
 * - Without a `name`, the result is called "default" when every value equals the reference,
 *   otherwise "custom". The name "default" is reserved for the reference values.
 *
 * Throws `ThresholdsError` (a `RecallInputError` with `details.issues`) listing every problem.
 */
export function resolveThresholds(partial?: unknown): Thresholds {
  if (partial === undefined || partial === null) return { ...DEFAULT_THRESHOLDS };
  const parsed = ThresholdsOverrideSchema.safeParse(partial);
  if (!parsed.success) throw new ThresholdsError(issuesFromZod(parsed.error.issues));
  const merged: Thresholds = { ...DEFAULT_THRESHOLDS };
  for (const key of THRESHOLD_KEYS) {
    const value = parsed.data[key];
    if (value !== undefined) merged[key] = value;
  }
  const isDefault = sameValuesAsDefault(merged);
  merged.name = parsed.data.name ?? (isDefault ? DEFAULT_PROFILE_NAME : CUSTOM_PROFILE_NAME);
  const issues = validateThresholds(merged);
  if (merged.name === DEFAULT_PROFILE_NAME && !isDefault) {
    issues.push({ path: ["name"], message: `"${DEFAULT_PROFILE_NAME}" is reserved for the reference thresholds` });
  }
  if (issues.length > 0) throw new ThresholdsError(issues);
  return merged;
}
