import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { MemoriesView } from "@/components/memories/memories-view";

export const metadata: Metadata = { title: "Memories" };

export default function MemoriesPage() {
  return (
    <>
      <PageHeader
        title="Memories"
        description="The embedded store: the memories recalls are answered from. Browse, search, add, import and delete them."
      />
      {/* The view reads its filters from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense
        fallback={
          <section className="panel memories-state" role="status">
            <p>Loading memories…</p>
          </section>
        }
      >
        <MemoriesView />
      </Suspense>
    </>
  );
}
