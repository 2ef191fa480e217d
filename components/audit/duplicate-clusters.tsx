"use client";

import Link from "next/link";
import { PanelHead, panelClassName } from "@/components/ui/panel";
import type { DuplicateCluster } from "@/lib/audit/types";
import { memoryHref } from "./audit-words";
import styles from "./audit.module.css";

/** Near-duplicate clusters, their members side by side, the one a merge keeps marked. */
export function DuplicateClusters({ store, clusters }: { store: string; clusters: DuplicateCluster[] }) {
  if (clusters.length === 0) return null;
  return (
    <section className={panelClassName} aria-labelledby="audit-clusters-title">
      <PanelHead title="Near-duplicate clusters" titleId="audit-clusters-title" aside={<span>{clusters.length}</span>} />
      <div className={styles.clusters}>
        {clusters.map((cluster) => (
          <div key={cluster.id} data-testid="duplicate-cluster">
            <h3>Cluster {cluster.id}</h3>
            <div className={styles.cluster}>
              {cluster.members.map((m) => (
                <div key={m.memory_id} className={styles.member} data-keep={m.memory_id === cluster.keep}>
                  <Link href={memoryHref(store, m.memory_id)} className="mono">
                    {m.memory_id}
                  </Link>
                  {m.memory_id === cluster.keep ? " (keep)" : null}
                  <p>{m.summary}</p>
                </div>
              ))}
            </div>
            <p>{cluster.suggestion}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
