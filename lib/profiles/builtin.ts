/**
 * The built-in profiles: `default` (the reference) and `use-lite`, fitted on the demo corpus by
 * `npm run fit-demo-profile` (data/demo/use-lite-profile.json). Read-only, never stored. Pure.
 */
import shipped from "@/data/demo/use-lite-profile.json";
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
});

export const BUILTIN_PROFILES: readonly Readonly<Profile>[] = [DEFAULT_PROFILE, SHIPPED_PROFILE];

/** Which profile a store uses until someone assigns one: embedded stores (USE-lite) ship calibrated. */
export function builtinStoreProfile(kind: "embedded" | "remote"): string {
  return kind === "embedded" ? SHIPPED_PROFILE_NAME : DEFAULT_PROFILE.name;
}
