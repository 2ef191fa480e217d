import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { MemoryPageView } from "@/components/memories/memory-page/memory-page-view";
import { getPrisma } from "@/lib/db/server";
import { memoryWasRecalled } from "@/lib/recall-log/server/memory-usage";
import { MEMORY_LIMITS } from "@/lib/stores/memory-schemas";
import { getEmbeddedStore } from "@/lib/stores/server/embedded";
import { StoreNameSchema } from "@/lib/stores/store-schemas";
import { StoreError } from "@/lib/stores/types";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Memory" };

/**
 * One memory of an embedded store (`?store=`, else the default store): what it says, the recalls it appeared in, its neighbours.
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

export default async function MemoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id: raw } = await params;
  const id = decoded(raw);
  if (id === null || id.length === 0 || id.length > MEMORY_LIMITS.idChars) notFound();
  // Ids are unique per store: `?store=` says whose (without it, the default store's).
  const { store: storeParam } = await searchParams;
  const asked = StoreNameSchema.safeParse(storeParam);
  if (storeParam !== undefined && !asked.success) notFound();
  const store = await getEmbeddedStore(asked.success ? asked.data : undefined).catch((error: unknown) => {
    if (error instanceof StoreError && error.code === "unknown_store") return null;
    throw error;
  });
  const memory = store ? await store.memories.get(id) : null;
  if (!memory && !(await memoryWasRecalled(await getPrisma(), id, store?.name ?? asked.data))) notFound();
  return (
    <>
      <PageHeader
        title={memory ? "Memory" : "Deleted memory"}
        description={
          <>
            <span className="mono">{id}</span>
            {store ? ` · store ${store.name}` : asked.data ? ` · store ${asked.data} (deleted)` : null}
          </>
        }
        actions={<Link href={store ? `/memories?store=${encodeURIComponent(store.name)}` : "/memories"}>All memories</Link>}
      />
      {/* The view keeps its list filter in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<p role="status">Loading the memory…</p>}>
        <MemoryPageView id={id} memory={memory} store={store?.name ?? asked.data ?? null} />
      </Suspense>
    </>
  );
}
