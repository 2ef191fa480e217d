import type { Metadata } from "next";
import { Suspense } from "react";
import { HistoryView } from "@/components/history/history-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "History" };

export default function HistoryPage() {
  return (
    <>
      <PageHeader title="Recall history" description="Every logged recall: run in the console or ingested from production." />
      {/* The view reads its filters from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense
        fallback={
          <section className="panel" role="status">
            <p>Loading recall history…</p>
          </section>
        }
      >
        <HistoryView />
      </Suspense>
    </>
  );
}
