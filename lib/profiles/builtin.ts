/**
 * The built-in profiles: `default` (the reference) and `use-lite`, fitted on the demo corpus by
 * `npm run fit-demo-profile` (data/demo/use-lite-profile.json: the thresholds of the old shape and
 * the verdict model). Read-only, never stored. Pure.
 */
import shipped from "@/data/demo/use-lite-profile.json";
import type { VerdictModel } from "@/lib/calibration/model";
import { DEFAULT_PROFILE, type Profile, type ProfileSource } from "@/lib/calibration/profile";
import { resolveThresholds } from "@/lib/recall/thresholds";

export const SHIPPED_PROFILE_NAME = "use-lite";

export const SHIPPED_PROFILE: Readonly<Profile> = Object.freeze({
  name: SHIPPED_PROFILE_NAME,
  description: shipped.description,
  thresholds: resolveThresholds(shipped.thresholds),
  pool_size: shipped.pool_size,
  source: shipped.source as ProfileSource,
  builtin: true,
  // The verdict model fitted on the demo corpus with its null (lib/calibration/README.md "Threshold
  // profiles"); a store that calibrated itself measures its recalls against its own null instead.
  model: shipped.model as unknown as VerdictModel,
});

export const BUILTIN_PROFILES: readonly Readonly<Profile>[] = [DEFAULT_PROFILE, SHIPPED_PROFILE];

/** Which profile a store uses until someone assigns one: embedded stores (USE-lite) ship calibrated. */
export function builtinStoreProfile(kind: "embedded" | "remote"): string {
  return kind === "embedded" ? SHIPPED_PROFILE_NAME : DEFAULT_PROFILE.name;
}
