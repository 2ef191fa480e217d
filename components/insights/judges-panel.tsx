"use client";

/**
 * The level under each judge — the store's verdict and the reference rules over every recall, and
 * each threshold profile over the recalls it judged — with how often its verdict agrees with the
 * selector's and with the labels, each rate with the 2×2 counts it stands on
 * (lib/insights/judges.ts). Render-only.
 */
import Link from "next/link";
import { panelNoteClassName } from "@/components/ui/panel";
import { cellNoteClassName, numericCellClassName } from "@/components/ui/table";
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { judgeName, keyOfJudge } from "@/lib/insights/judges";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { Agreement, JudgeInsight } from "@/lib/insights/schema";
import styles from "./insights.module.css";
import { InsightsTable, RateCell, Section } from "./table-parts";

const LEVELS = ["high", "moderate", "low", "none"] as const;

function cellsText(a: Agreement, yes: string, no: string): string {
  return `worth reading · ${yes}: ${formatCount(a.worth_yes)}; worth reading · ${no}: ${formatCount(a.worth_no)}; weak · ${yes}: ${formatCount(a.weak_yes)}; weak · ${no}: ${formatCount(a.weak_no)}`;
}

function AgreementCell({ agreement, yes, no, testId }: { agreement: Agreement; yes: string; no: string; testId: string }) {
  return (
    <td className={numericCellClassName} data-testid={testId} title={cellsText(agreement, yes, no)}>
      {formatPercent(agreement.rate)}
      <span className={cellNoteClassName}>
        {agreement.total > 0 ? `${formatCount(agreement.agree)} of ${formatCount(agreement.total)}` : "no data"}
      </span>
    </td>
  );
}

/** What a judge's row counts, under its name. */
const JUDGE_NOTES = {
  verdict: "every recall, as its store judged it",
  reference: "every recall: what the agent saw",
  profile: "the recalls it judged",
} as const;

const JUDGE_LINK_TITLES = {
  verdict: "Open these recalls in History (the level column leads with the store's verdict)",
  reference: "Open these recalls in History",
} as const;

export function JudgesPanel({ judges, scope }: { judges: readonly JudgeInsight[]; scope: DrillScope }) {
  const profiles = judges.filter((j) => j.judge === "profile").length;
  return (
    <Section
      title="Level under each judge"
      testId="judges"
      aside={
        <span className={`${styles.small} ${styles.muted}`}>
          {profiles > 0
            ? `the store's verdict, the reference rules and ${countOf(profiles, "profile")}`
            : "no recall was judged by a profile: the store's verdict is the reference rules' level"}
        </span>
      }
    >
      <InsightsTable
        columns={[
          "Judged by",
          { label: "Recalls", numeric: true },
          ...LEVELS.map((l) => ({ label: l[0]!.toUpperCase() + l.slice(1), numeric: true })),
          { label: "Agrees with the selector", numeric: true },
          { label: "Agrees with labels", numeric: true },
        ]}
      >
        <tbody>
          {judges.map((j) => (
            <tr key={`${j.judge}:${j.profile ?? ""}`} data-testid="judge-row" data-judge={j.judge} data-profile={j.profile ?? ""}>
              <td>
                <Link
                  className={styles.cellLink}
                  href={drill.judge(scope, j.judge === "profile" ? j.profile : null)}
                  title={
                    j.judge === "profile" ? `Open the recalls profile ${j.profile} judged in History` : JUDGE_LINK_TITLES[j.judge]
                  }
                >
                  {j.judge === "profile" ? j.profile : judgeName(keyOfJudge(j))}
                </Link>
                <span className={cellNoteClassName}>{JUDGE_NOTES[j.judge]}</span>
              </td>
              <td className={numericCellClassName}>{formatCount(j.recalls)}</td>
              {LEVELS.map((l) => (
                <RateCell key={l} share={j.level_mix?.[l] ?? null} num={j[l]} den={j.recalls} />
              ))}
              <AgreementCell agreement={j.selector} yes="kept some" no="kept none" testId="judge-selector" />
              <AgreementCell agreement={j.labels} yes="labeled present" no="labeled absent" testId="judge-labels" />
            </tr>
          ))}
        </tbody>
      </InsightsTable>
      <p className={panelNoteClassName}>
        The store&apos;s verdict is each recall&apos;s level as its store judged it when it was logged: the level under the
        store&apos;s threshold profile, or the reference rules&apos; level where no profile judged it. A level is worth reading
        when high or moderate, weak when low or none. It agrees with the selector when a worth-reading level kept some result or a
        weak one kept none (over the recalls the selector ran on that state both counts), and with a label when a worth-reading
        level was labeled “something relevant present” or a weak one “nothing present” (unsure labels left out). Hover a rate for
        its four counts.
      </p>
    </Section>
  );
}
