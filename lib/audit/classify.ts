/**
 * The classes of the reachability audit (lib/audit/README.md "Reachability audit"), from the
 * evidence the server part gathers: each memory's probe recalls, its near-duplicates and its
 * appearances in the recall log. Pure.
 */
import {
  AUDIT_CLASSES,
  AUDIT_MODES,
  type AuditClass,
  type AuditFinding,
  type AuditMode,
  type AuditSettings,
  type DuplicateCluster,
  type LogUsage,
  type NearDuplicate,
  type ProbeRecord,
  type UnreachableReason,
} from "./types";

/** Best page rank over every probe and k, per mode. */
export function bestRanks(records: readonly ProbeRecord[]): Record<AuditMode, number | null> {
  const best: Record<AuditMode, number | null> = { hybrid: null, semantic: null, keyword: null };
  for (const r of records) {
    if (r.page_rank === null) continue;
    const now = best[r.mode];
    if (now === null || r.page_rank < now) best[r.mode] = r.page_rank;
  }
  return best;
}

/**
 * The modes in which no probe put the memory on the page. A mode whose every probe failed is not
 * judged (the failure is a store-level note, not the memory's).
 */
export function unreachableModes(records: readonly ProbeRecord[]): AuditMode[] {
  return AUDIT_MODES.filter((mode) => {
    const ran = records.filter((r) => r.mode === mode && r.error === undefined);
    return ran.length > 0 && ran.every((r) => r.page_rank === null);
  });
}

/**
 * The memories ranked above `id` by one recall: those before it in the merged list, or, when it
 * was not fetched at all, everything on the page (a store without a pool: the page alone).
 */
export function rankedAbove(
  id: string,
  candidates: readonly { memory_id: string; rank: number }[] | null,
  pageIds: readonly string[],
): string[] {
  const list = candidates ? [...candidates].sort((a, b) => a.rank - b.rank).map((c) => c.memory_id) : pageIds;
  const at = list.indexOf(id);
  if (at >= 0) return list.slice(0, at);
  return candidates ? pageIds.filter((other) => other !== id) : [...pageIds];
}

/** The always-buried, always-dropped and never-recalled classes from a memory's appearances. */
export function logClasses(
  usage: LogUsage | null,
  settings: Pick<AuditSettings, "min_appearances">,
  logRecalls: number,
): AuditClass[] {
  if (logRecalls === 0) return [];
  if (!usage || usage.candidate === 0) return ["never_recalled"];
  const out: AuditClass[] = [];
  if (usage.candidate >= settings.min_appearances && usage.returned === 0) out.push("always_buried");
  if (usage.returned >= settings.min_appearances && usage.dropped === usage.returned) out.push("always_dropped");
  return out;
}

export interface FindingInput {
  memory_id: string;
  summary: string;
  records: ProbeRecord[];
  reasons: UnreachableReason[];
  /** Neighbours at or above the threshold that ranked above it on one of its own probes. */
  shadowedBy: NearDuplicate[];
  log: LogUsage | null;
  logRecalls: number;
  settings: Pick<AuditSettings, "min_appearances">;
}

/** A memory's finding, or null when nothing is wrong with it. */
export function classifyMemory(input: FindingInput): AuditFinding | null {
  const modes = unreachableModes(input.records);
  const classes: AuditClass[] = [];
  if (modes.length > 0) classes.push("unreachable");
  if (input.shadowedBy.length > 0) classes.push("shadowed");
  classes.push(...logClasses(input.log, input.settings, input.logRecalls));
  if (classes.length === 0) return null;
  const probing = modes.length > 0 || input.shadowedBy.length > 0;
  return {
    memory_id: input.memory_id,
    summary: input.summary,
    classes,
    best_rank: bestRanks(input.records),
    unreachable: modes.length > 0 ? { modes, reasons: input.reasons.filter((r) => modes.includes(r.mode)) } : null,
    shadowed: input.shadowedBy.length > 0 ? { by: input.shadowedBy, cluster: 0 } : null,
    log: input.log,
    // Only flagged memories carry their probes: a 10k store's result stays small.
    probes: probing ? input.records : [],
  };
}

export function countClasses(findings: readonly AuditFinding[]): Record<AuditClass, number> {
  const counts = Object.fromEntries(AUDIT_CLASSES.map((c) => [c, 0])) as Record<AuditClass, number>;
  for (const f of findings) for (const c of f.classes) counts[c]++;
  return counts;
}

/**
 * Near-duplicate clusters: the shadowed memories linked to whoever shadowed them, joined
 * transitively. The member a merge keeps is the one no other member shadowed (it wins its own
 * probes), then the longest summary, then the smallest id. Sets each finding's `cluster`.
 */
export function duplicateClusters(findings: AuditFinding[]): DuplicateCluster[] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const add = (id: string) => {
    if (!parent.has(id)) parent.set(id, id);
  };
  const summaries = new Map<string, string>();
  const links: { a: string; b: string; cosine: number }[] = [];
  for (const f of findings) {
    if (!f.shadowed) continue;
    add(f.memory_id);
    summaries.set(f.memory_id, f.summary);
    for (const n of f.shadowed.by) {
      add(n.memory_id);
      if (!summaries.has(n.memory_id)) summaries.set(n.memory_id, n.summary);
      links.push({ a: f.memory_id, b: n.memory_id, cosine: n.cosine });
      parent.set(find(f.memory_id), find(n.memory_id));
    }
  }
  const shadowedIds = new Set(findings.filter((f) => f.shadowed).map((f) => f.memory_id));
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    groups.set(root, [...(groups.get(root) ?? []), id]);
  }
  const clusters = [...groups.values()]
    .map((ids) => ids.sort())
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
    .map((ids, i): DuplicateCluster => {
      const inCluster = new Set(ids);
      const minCosine = Math.min(...links.filter((l) => inCluster.has(l.a)).map((l) => l.cosine));
      const keep = [...ids].sort(
        (a, b) =>
          Number(shadowedIds.has(a)) - Number(shadowedIds.has(b)) ||
          (summaries.get(b)?.length ?? 0) - (summaries.get(a)?.length ?? 0) ||
          (a < b ? -1 : 1),
      )[0]!;
      const others = ids.filter((id) => id !== keep);
      return {
        id: i + 1,
        members: ids.map((id) => ({ memory_id: id, summary: summaries.get(id) ?? "" })),
        min_cosine: minCosine,
        keep,
        suggestion: `Keep ${keep} and merge ${others.join(", ")} into it (cosine ≥ ${minCosine.toFixed(3)}): they answer the same probes, and only one of them reaches the page first.`,
      };
    });
  for (const f of findings) {
    if (!f.shadowed) continue;
    const cluster = clusters.find((c) => c.members.some((m) => m.memory_id === f.memory_id));
    if (cluster) f.shadowed.cluster = cluster.id;
  }
  return clusters;
}
