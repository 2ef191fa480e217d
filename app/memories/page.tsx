import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { MemoriesView } from "@/components/memories/memories-view";
import { LoadingState } from "@/components/ui/states";

export const metadata: Metadata = { title: "Memories" };

export default function MemoriesPage() {
  return (
    <>
      <PageHeader
        title="Memories"
        description="The memories recalls are answered from: browse and search any store; add, import and delete in the embedded one."
      />
      {/* The view reads its filters from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense
        fallback={
          <section className="panel">
            <LoadingState>Loading memories…</LoadingState>
          </section>
        }
      >
        <MemoriesView />
      </Suspense>
    </>
  );
}
