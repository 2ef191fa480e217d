/**
 * Threshold profiles as data: every constant of the reference rules (spec §4.2) plus the pool
 * the rules judge. `pool_size` null is the reference's pool (the first k merged candidates, so
 * the level moves with k); a number N judges the first N merged candidates whatever the page
 * size, which takes k out of the level. `default` is the reference profile, built in and
 * read-only. Pure (no I/O); the database keeps the same shape (lib/profiles).
 */
import { z } from "zod";
import { issuesFromZod, ThresholdsError } from "@/lib/recall/errors";
import {
  CUSTOM_PROFILE_NAME,
  DEFAULT_PROFILE_NAME,
  DEFAULT_THRESHOLDS,
  resolveThresholds,
  ThresholdsOverrideSchema,
  type ThresholdKey,
  type Thresholds,
} from "@/lib/recall/thresholds";
import { withInputRules } from "@/lib/validation/input-rules";
import type { VerdictModel } from "./model";

/** Largest fixed pool: the embedded store fetches at most 200 hits per arm. */
export const MAX_POOL_SIZE = 200;
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Where a profile came from, and how well it did when it was fitted. */
export interface ProfileSource {
  kind: "builtin" | "manual" | "fit";
  /** The evaluation run, dataset or History filter the labels came from. */
  run_id?: string | null;
  dataset?: string | null;
  recall_filters?: Record<string, unknown> | null;
  fitted_at?: string | null;
  /** Cross-validated balanced accuracy (and the training fit beside it, for honesty). */
  estimate?: { balanced_accuracy: number | null; train_balanced_accuracy: number | null; folds: number } | null;
  /** Free text, e.g. the command that reproduces the fit. */
  note?: string | null;
}

export interface Profile {
  name: string;
  description: string | null;
  thresholds: Thresholds;
  pool_size: number | null;
  source: ProfileSource | null;
  /** Built in (`default`, the shipped fit): read-only. */
  builtin: boolean;
  /**
   * The store's verdict model (model/index.ts): when set, the level is a cut on its calibrated
   * probability and the thresholds only draw the reference-shaped block beside it. Null or absent:
   * a profile of the old shape, judged by the rules with its constants.
   */
  model?: VerdictModel | null;
}

export const DEFAULT_PROFILE: Readonly<Profile> = Object.freeze<Profile>({
  name: DEFAULT_PROFILE_NAME,
  description: "The reference service's rules and constants (spec §4.2): the pool is the page (the first k merged candidates).",
  thresholds: { ...DEFAULT_THRESHOLDS },
  pool_size: null,
  source: { kind: "builtin", note: "Reference constants" },
  builtin: true,
});

export const PoolSizeSchema = z
  .number({ error: "must be a whole number of candidates or null" })
  .int("must be a whole number of candidates")
  .min(1, "must be at least 1")
  .max(MAX_POOL_SIZE, `must be at most ${MAX_POOL_SIZE}`)
  .nullable();

export const ProfileNameSchema = z
  .string()
  .regex(PROFILE_NAME_PATTERN, "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit");

/**
 * `POST /api/profiles` and the profile form: thresholds are merged over the reference values; the
 * description passes the one input rule (docs/ARCHITECTURE.md "Bad input").
 */
export const ProfileInputSchema = withInputRules(
  z.strictObject({
    name: ProfileNameSchema,
    thresholds: ThresholdsOverrideSchema.omit({ name: true }).default({}),
    pool_size: PoolSizeSchema.optional(),
    description: z.string().max(2_000).nullable().optional(),
  }),
);
export type ProfileInput = z.input<typeof ProfileInputSchema>;

/**
 * A validated profile from user input: thresholds merged over the defaults and checked (ranges,
 * band order). Throws ThresholdsError listing every problem; the name `default` is refused.
 */
export function profileFromInput(input: unknown, source: ProfileSource | null = { kind: "manual" }): Profile {
  const parsed = ProfileInputSchema.safeParse(input);
  if (!parsed.success) throw new ThresholdsError(issuesFromZod(parsed.error.issues));
  const { name, thresholds, pool_size, description } = parsed.data;
  if (name === DEFAULT_PROFILE_NAME) {
    throw new ThresholdsError([
      { path: ["name"], message: `"${DEFAULT_PROFILE_NAME}" is the built-in reference profile and is read-only` },
    ]);
  }
  let resolved: Thresholds;
  try {
    resolved = resolveThresholds({ ...thresholds, name });
  } catch (error) {
    if (error instanceof ThresholdsError) {
      throw new ThresholdsError(error.details.issues.map((i) => ({ ...i, path: ["thresholds", ...i.path] })));
    }
    throw error;
  }
  return { name, description: description ?? null, thresholds: resolved, pool_size: pool_size ?? null, source, builtin: false };
}

/** The number of merged candidates a profile judges on a page of size k. */
export function poolSizeFor(profile: Pick<Profile, "pool_size">, k: number): number {
  return profile.pool_size ?? k;
}

/** Constants and/or the pool edited over a profile's own, unsaved (the what-if page's live editing). */
export interface ProfileEdits {
  thresholds?: Partial<Record<ThresholdKey, number>>;
  /** undefined: the profile's; null: the page (k); a number: the first N merged candidates. */
  pool_size?: number | null;
}

/**
 * A profile with edits applied: the edited constants merged over the profile's and checked
 * (ranges, band order), named `custom` when any constant changed. Throws ThresholdsError with
 * every problem, its paths under `thresholds`.
 */
export function editProfile(
  base: Pick<Profile, "thresholds" | "pool_size">,
  edits: ProfileEdits,
): { thresholds: Thresholds; pool_size: number | null } {
  const pool_size = edits.pool_size === undefined ? base.pool_size : edits.pool_size;
  const changed = Object.entries(edits.thresholds ?? {}).filter(
    ([key, value]) => value !== undefined && value !== base.thresholds[key as ThresholdKey],
  );
  if (changed.length === 0) return { thresholds: base.thresholds, pool_size };
  const { name: _name, ...constants } = base.thresholds;
  try {
    return { thresholds: resolveThresholds({ ...constants, ...edits.thresholds, name: CUSTOM_PROFILE_NAME }), pool_size };
  } catch (error) {
    if (error instanceof ThresholdsError) {
      throw new ThresholdsError(error.details.issues.map((i) => ({ ...i, path: ["thresholds", ...i.path] })));
    }
    throw error;
  }
}
