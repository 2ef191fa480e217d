import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Recall not found" };

/**
 * An address under /recalls/ that names no logged recall: not a recall id (a UUID), or one the
 * log no longer holds (retention deletes old recalls; a database was reset).
 */
export default function RecallNotFound() {
  return (
    <section className="panel empty-state" data-testid="recall-not-found">
      <h1>Recall not found</h1>
      <p>
        No logged recall has this id. It may have been deleted by retention, or logged by another database; a recall id is a UUID
        like <code>3f2b…-…</code> as History shows it.
      </p>
      <p>
        Find it in <Link href="/recalls">History</Link>, or run the query again in the <Link href="/">console</Link>.
      </p>
    </section>
  );
}
