import type { Metadata } from "next";
import { Suspense } from "react";
import { RunReportView } from "@/components/evaluate/run-report-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Evaluation run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <PageHeader
        title="Evaluation run"
        description="How this store ranked the labeled queries, and how far its confidence level can be trusted."
      />
      {/* The query table keeps its sort in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<p role="status">Loading the run…</p>}>
        <RunReportView id={id} />
      </Suspense>
    </>
  );
}
