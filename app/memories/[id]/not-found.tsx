import Link from "next/link";

/** An id the embedded store does not hold and no logged recall names. */
export default function MemoryNotFound() {
  return (
    <section className="panel empty-state" data-testid="memory-not-found">
      <h1>Memory not found</h1>
      <p>
        The embedded store holds no memory with this id, and no logged recall names it. Search for it on the{" "}
        <Link href="/memories">Memories</Link> page (the search box matches ids too).
      </p>
    </section>
  );
}
