import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { MemoryPageView } from "@/components/memories/memory-page/memory-page-view";
import { getPrisma } from "@/lib/db";
import { memoryWasRecalled } from "@/lib/recall-log/memory-usage";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { MEMORY_LIMITS } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Memory" };

/**
 * One memory of the embedded store: what it says, the recalls it appeared in, its neighbours.
 * An id the store does not hold is a 404, unless logged recalls still name it (it was deleted):
 * then the page says so and lists those recalls.
 */
/** The id as typed: Next hands dynamic segments over still percent-encoded; a malformed escape is no id. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export default async function MemoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  const id = decoded(raw);
  if (id === null || id.length === 0 || id.length > MEMORY_LIMITS.idChars) notFound();
  const memory = await (await getEmbeddedStore()).memories.get(id);
  if (!memory && !(await memoryWasRecalled(await getPrisma(), id))) notFound();
  return (
    <>
      <PageHeader
        title={memory ? "Memory" : "Deleted memory"}
        description={<span className="mono">{id}</span>}
        actions={<Link href="/memories">All memories</Link>}
      />
      {/* The view keeps its list filter in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<p role="status">Loading the memory…</p>}>
        <MemoryPageView id={id} memory={memory} />
      </Suspense>
    </>
  );
}
