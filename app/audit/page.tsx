import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditView } from "@/components/audit/audit-view";
import { PageHeader } from "@/components/layout/page-header";
import { LoadingState } from "@/components/ui/states";

export const metadata: Metadata = { title: "Reachability" };

export default function AuditPage() {
  return (
    <>
      <PageHeader
        title="Reachability"
        description="Which memories of a store can your agent never find: unreachable, shadowed by near-duplicates, always buried, always dropped, never recalled."
      />
      {/* The view reads the store and the class from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense
        fallback={
          <section className="panel">
            <LoadingState>Loading…</LoadingState>
          </section>
        }
      >
        <AuditView />
      </Suspense>
    </>
  );
}
