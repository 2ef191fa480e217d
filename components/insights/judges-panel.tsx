"use client";

/**
 * The level under each judge — the reference rules over every recall, and each threshold profile
 * over the recalls it judged — with how often its verdict agrees with the selector's and with the
 * labels, each rate with the 2×2 counts it stands on (lib/insights/judges.ts). Render-only.
 */
import Link from "next/link";
import { countOf, formatCount, formatPercent } from "@/lib/format";
import { drill, type DrillScope } from "@/lib/insights/links";
import type { Agreement, JudgeInsight } from "@/lib/insights/schema";
import { cellNoteClassName, numericCellClassName } from "@/components/ui/table";
import { panelNoteClassName } from "@/components/ui/panel";
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

export function JudgesPanel({ judges, scope }: { judges: readonly JudgeInsight[]; scope: DrillScope }) {
  const profiles = judges.filter((j) => j.profile !== null).length;
  return (
    <Section
      title="Level under each profile"
      testId="judges"
      aside={
        <span className={`${styles.small} ${styles.muted}`}>
          {profiles > 0 ? `reference rules and ${countOf(profiles, "profile")}` : "no recall was judged by a profile"}
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
            <tr key={j.profile ?? ""} data-testid="judge-row" data-profile={j.profile ?? ""}>
              <td>
                <Link
                  className={styles.cellLink}
                  href={drill.judge(scope, j.profile)}
                  title={j.profile ? `Open the recalls profile ${j.profile} judged in History` : "Open these recalls in History"}
                >
                  {j.profile ?? "Reference rules"}
                </Link>
                <span className={cellNoteClassName}>{j.profile ? "the recalls it judged" : "every recall"}</span>
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
        A level is worth reading when high or moderate, weak when low or none. It agrees with the selector when a worth-reading
        level kept some result or a weak one kept none (over the recalls the selector ran on that state both counts), and with a
        label when a worth-reading level was labeled “something relevant present” or a weak one “nothing present” (unsure labels
        left out). Hover a rate for its four counts.
      </p>
    </Section>
  );
}
