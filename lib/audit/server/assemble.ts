/**
 * A probe run and the recall log made into the audit's result (lib/audit/README.md
 * "Reachability audit"); `auditEmbeddedStore` runs the whole audit of an embedded store in the
 * caller's time (the job runner, tests and the benchmark share it).
 */
import "server-only";
import type { PrismaClient } from "@prisma/client";
import type { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { memoryVersion } from "@/lib/stores/server/embedded/index-snapshot";
import { classifyMemory, countClasses, duplicateClusters } from "../classify";
import type { AuditFinding, AuditResult, AuditSettings } from "../types";
import { probeEmbeddedStore, type ProbeOptions, type ProbeRun } from "./embedded-audit";
import { logUsage } from "./log-usage";
import { REMOTE_SCOPE } from "./remote-audit";

const EMBEDDED_SCOPE =
  "Every memory: its summary, its summary without the store's most frequent words, and its tags, each at k = 5 and 10 in hybrid, semantic and keyword mode.";

export interface AuditHead {
  store: string;
  kind: "embedded" | "remote";
  version: string | null;
  settings: AuditSettings;
  startedAt: string;
}

export async function assembleAudit(prisma: PrismaClient, head: AuditHead, run: ProbeRun): Promise<AuditResult> {
  const { settings } = head;
  const since = new Date(Date.now() - settings.log_days * 86_400_000);
  const log = await logUsage(prisma, head.store, since);
  const findings: AuditFinding[] = [];
  for (const m of run.memories) {
    const finding = classifyMemory({ ...m, log: log.usage.get(m.memory_id) ?? null, logRecalls: log.recalls, settings });
    if (finding) findings.push(finding);
  }
  const clusters = duplicateClusters(findings);
  const notes = [...run.notes];
  if (log.recalls === 0) {
    notes.push(
      `No recall of ${head.store} with its candidates was logged in the last ${settings.log_days} days: always buried, always dropped and never recalled are not judged.`,
    );
  }
  return {
    store: head.store,
    kind: head.kind,
    version: head.version,
    started_at: head.startedAt,
    finished_at: new Date().toISOString(),
    settings,
    memories: run.memories.length,
    probe_recalls: run.probeRecalls,
    frequent_words: run.frequentWords,
    counts: countClasses(findings),
    notes,
    log_recalls: log.recalls,
    findings,
    clusters,
    scope: head.kind === "remote" ? REMOTE_SCOPE : EMBEDDED_SCOPE,
  };
}

/** The whole audit of an embedded store, awaited (no job, nothing saved). */
export async function auditEmbeddedStore(
  prisma: PrismaClient,
  store: EmbeddedStore,
  settings: AuditSettings,
  options: Omit<ProbeOptions, "shadowThreshold"> = {},
): Promise<AuditResult> {
  const startedAt = new Date().toISOString();
  const version = await memoryVersion(prisma, store.name);
  const run = await probeEmbeddedStore(prisma, store, { ...options, shadowThreshold: settings.shadow_threshold });
  return assembleAudit(prisma, { store: store.name, kind: "embedded", version, settings, startedAt }, run);
}
