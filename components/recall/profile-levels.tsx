"use client";

import Link from "next/link";
import { useId } from "react";
import { Notice } from "@/components/ui/notice";
import { PanelHead, panelClassName } from "@/components/ui/panel";
import { verdictDependsOnK, type KSensitivityPoint } from "@/lib/calibration/level";
import type { LoggedRecall } from "@/lib/recall-log/types";
import { LevelBadge } from "./level-badge";
import styles from "./profile-levels.module.css";

export type ChartRules = "reference" | "profile";

/**
 * Both levels side by side — the reference rules (the wire `confidence` block, as the service
 * would answer) and the store's threshold profile — with the choice of whose thresholds the chart
 * draws, and the k-sensitivity strip: the level at k = 5, 10, 20 from the stored merged list,
 * warning when the verdict depends on k.
 */
export function ProfileLevels({
  view,
  rules,
  onRules,
}: {
  view: LoggedRecall;
  rules: ChartRules;
  onRules: (r: ChartRules) => void;
}) {
  const titleId = useId();
  const profile = view.profile_confidence;
  const points = view.k_sensitivity;
  if (!view.confidence || (!profile && !points)) return null;
  const depends = points
    ? verdictDependsOnK(points) ||
      (points.some((p) => p.profile_level) && verdictDependsOnK(points.map((p) => ({ level: p.profile_level! }))))
    : false;
  return (
    <section className={panelClassName} data-testid="profile-levels" aria-labelledby={titleId}>
      <PanelHead title="Levels by rules" titleId={titleId} />
      <p data-testid="both-levels" className={styles.bothLevels}>
        <span>
          Reference rules: <LevelBadge level={view.confidence.level} />
        </span>
        {profile ? (
          <>
            {" · "}
            <span data-testid="profile-level">
              <Link href={`/profiles?profile=${encodeURIComponent(profile.profile)}`}>{profile.profile}</Link> profile:{" "}
              <LevelBadge level={profile.level} />
            </span>
          </>
        ) : null}
      </p>
      {profile ? (
        <p className={styles.caveat}>
          {profile.judged === null
            ? "The profile judged the values the store stated (no pool was kept)."
            : `The profile judged the first ${profile.judged} merged candidates${profile.pool_size === null ? " (the page)" : ", whatever k"}; top cosine ${profile.top_score ?? "—"}.`}
        </p>
      ) : null}
      {profile ? (
        <fieldset className={styles.rulesChoice}>
          <legend>Chart thresholds</legend>
          <label>
            <input type="radio" name={`${titleId}-rules`} checked={rules === "reference"} onChange={() => onRules("reference")} />{" "}
            reference
          </label>
          <label>
            <input type="radio" name={`${titleId}-rules`} checked={rules === "profile"} onChange={() => onRules("profile")} />{" "}
            {profile.profile}
          </label>
        </fieldset>
      ) : null}
      {points ? (
        <div data-testid="k-sensitivity">
          <KStrip points={points} profileName={profile?.profile ?? null} idPrefix={titleId} />
          {depends ? (
            <Notice tone="warning" role="note" data-testid="k-warning">
              The verdict depends on k: the reference pool is the page, so a different k changes whether this reads “worth
              reading”.
            </Notice>
          ) : (
            <p className={styles.caveat}>The verdict is the same at k = 5, 10 and 20.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The level by k as a table: k = 5, 10, 20 across, each rule's name on its own row above its
 * badges (not in a first column), so the three k columns fit a phone's width with the badges
 * whole, and a long profile name ends in "…" instead of pushing k = 20 out of view.
 */
function KStrip({
  points,
  profileName,
  idPrefix,
}: {
  points: readonly KSensitivityPoint[];
  profileName: string | null;
  idPrefix: string;
}) {
  const colId = (k: number) => `${idPrefix}-k${k}`;
  const rows: { key: string; name: string; levels: (string | null | undefined)[]; testId: (k: number) => string }[] = [
    { key: "reference", name: "reference", levels: points.map((p) => p.level), testId: (k) => `k-${k}-level` },
  ];
  if (profileName !== null && points.some((p) => p.profile_level)) {
    rows.push({
      key: "profile",
      name: profileName,
      levels: points.map((p) => p.profile_level),
      testId: (k) => `k-${k}-profile-level`,
    });
  }
  return (
    <div className={styles.kStripScroll}>
      <table className={styles.kStrip}>
        <caption>Level by k (from the stored merged list)</caption>
        <thead>
          <tr>
            {points.map((p) => (
              <th scope="col" key={p.k} id={colId(p.k)}>
                k = {p.k}
                {p.pool < p.k ? <span title={`only ${p.pool} candidates stored`}>*</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        {rows.map((row) => {
          const rowId = `${idPrefix}-${row.key}`;
          return (
            <tbody key={row.key}>
              <tr>
                <th scope="row" colSpan={points.length} id={rowId} className={styles.kRule} title={row.name}>
                  {row.name}
                </th>
              </tr>
              <tr>
                {points.map((p, i) => (
                  <td key={p.k} headers={`${colId(p.k)} ${rowId}`} data-testid={row.testId(p.k)}>
                    <LevelBadge level={row.levels[i]} className={styles.kBadge} />
                  </td>
                ))}
              </tr>
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
