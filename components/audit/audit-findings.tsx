"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { PanelHead, panelClassName } from "@/components/ui/panel";
import { DataTable } from "@/components/ui/table";
import { AUDIT_CLASSES, type AuditClass, type AuditFinding, type AuditResult, type UnreachableReason } from "@/lib/audit/types";
import { errorMessage } from "@/lib/queries/fetch-json";
import { useReproduceProbe } from "@/lib/queries/use-audit";
import { CLASS_WORDS, flaggedLine, memoryHref, recallWhyHref } from "./audit-words";
import styles from "./audit.module.css";

const SHOWN = 500;

function isClass(value: string | null): value is AuditClass {
  return value !== null && (AUDIT_CLASSES as readonly string[]).includes(value);
}

/** The counts per class (each a filter, `?class=`), then the flagged memories with their evidence. */
export function AuditFindings({ store, result }: { store: string; result: AuditResult }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const raw = params.get("class");
  const chosen = isClass(raw) ? raw : null;
  const shown = chosen ? result.findings.filter((f) => f.classes.includes(chosen)) : result.findings;

  const filter = (next: AuditClass | null) => {
    const query = new URLSearchParams(params.toString());
    if (next) query.set("class", next);
    else query.delete("class");
    router.replace(`${pathname}?${query.toString()}`, { scroll: false });
  };

  return (
    <section className={panelClassName} aria-labelledby="audit-findings-title">
      <PanelHead title="Findings" titleId="audit-findings-title" aside={<span>{flaggedLine(result)}</span>} />
      <div className={styles.counts} role="group" aria-label="Filter by class">
        {AUDIT_CLASSES.map((c) => (
          <Button
            key={c}
            className={styles.count}
            aria-pressed={chosen === c}
            title={CLASS_WORDS[c].means}
            onClick={() => filter(chosen === c ? null : c)}
            data-testid={`audit-count-${c}`}
          >
            <span>{CLASS_WORDS[c].label}</span>
            <span className={styles.countValue}>{result.counts[c].toLocaleString("en")}</span>
          </Button>
        ))}
      </div>
      {shown.length === 0 ? (
        <p>
          {chosen
            ? `No memory is ${CLASS_WORDS[chosen].label.toLowerCase()}.`
            : "Nothing flagged: every memory reached the page."}
        </p>
      ) : (
        <DataTable
          columns={["Memory", "Classes", "Evidence"]}
          caption={
            shown.length > SHOWN ? `The first ${SHOWN} of ${shown.length.toLocaleString("en")}; the CSV has them all.` : undefined
          }
          alignTop
          data-testid="audit-findings"
        >
          <tbody>
            {shown.slice(0, SHOWN).map((f) => (
              <FindingRow key={f.memory_id} store={store} finding={f} />
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}

function FindingRow({ store, finding }: { store: string; finding: AuditFinding }) {
  return (
    <tr data-memory={finding.memory_id}>
      <td>
        <Link href={memoryHref(store, finding.memory_id)} className="mono">
          {finding.memory_id}
        </Link>
        <div>{finding.summary}</div>
      </td>
      <td>{finding.classes.map((c) => CLASS_WORDS[c].label).join(", ")}</td>
      <td>
        <div className={styles.evidence}>
          {finding.unreachable?.reasons.map((r) => (
            <UnreachableEvidence key={r.mode} store={store} memoryId={finding.memory_id} reason={r} />
          ))}
          {finding.unreachable && finding.unreachable.reasons.length === 0 ? (
            <span>Not on the page in {finding.unreachable.modes.join(", ")} mode.</span>
          ) : null}
          {finding.shadowed ? (
            <span>
              Outranked by{" "}
              {finding.shadowed.by.map((n, i) => (
                <span key={n.memory_id}>
                  {i > 0 ? ", " : ""}
                  <Link href={memoryHref(store, n.memory_id)} className="mono">
                    {n.memory_id}
                  </Link>{" "}
                  (cosine {n.cosine.toFixed(3)})
                </span>
              ))}{" "}
              — cluster {finding.shadowed.cluster}.
            </span>
          ) : null}
          {finding.log ? (
            <span>
              In {finding.log.candidate} logged recalls: on the page {finding.log.returned}, dropped {finding.log.dropped}.{" "}
              {finding.log.recall_ids.map((id, i) => (
                <span key={id}>
                  {i > 0 ? " · " : ""}
                  <Link href={recallWhyHref(id, finding.memory_id)}>recall {i + 1}</Link>
                </span>
              ))}
            </span>
          ) : finding.classes.includes("never_recalled") ? (
            <span>In no logged recall of the window.</span>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** One mode's reason, and the recall that reproduces it: the probe run again, logged, opened with "why?". */
function UnreachableEvidence({ store, memoryId, reason }: { store: string; memoryId: string; reason: UnreachableReason }) {
  const reproduce = useReproduceProbe();
  const router = useRouter();
  return (
    <span data-testid="unreachable-reason" data-mode={reason.mode} data-reason={reason.reason}>
      <strong>{reason.mode}</strong> ({reason.probe.kind} probe, k = {reason.probe.k}): {reason.message}{" "}
      <Button
        size="small"
        disabled={reproduce.isPending}
        onClick={() =>
          reproduce.mutate(
            { store, query: reason.probe.query, k: reason.probe.k, search_mode: reason.mode, selector: "off" },
            { onSuccess: (view) => router.push(recallWhyHref(view.id, memoryId)) },
          )
        }
      >
        Reproduce as a recall
      </Button>
      {reproduce.error ? <Notice tone="error">{errorMessage(reproduce.error)}</Notice> : null}
    </span>
  );
}
