import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Evaluation run not found" };

/**
 * An address under /evaluate/runs/ that names no evaluation run: not a run id (a UUID), or a run
 * this database does not hold (another database, or a reset one).
 */
export default function RunNotFound() {
  return (
    <section className="panel empty-state" data-testid="run-not-found">
      <h1>Evaluation run not found</h1>
      <p>
        No evaluation run has this id. It may belong to another database, or the link may be cut short; a run id is a UUID like{" "}
        <code>3f2b…-…</code>.
      </p>
      <p>
        Pick a run from the list on <Link href="/evaluate">Evaluate</Link>, or start a new one there.
      </p>
    </section>
  );
}
