import type { Metadata } from "next";
import { Suspense } from "react";
import { CompareView } from "@/components/evaluate/compare-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Compare runs" };

export default function ComparePage() {
  return (
    <>
      <PageHeader
        title="Compare runs"
        description="Two runs over the same set: what changed in the metrics, in each query's rank and level, and which triage verdicts flipped."
      />
      {/* The runs come from the URL (?a=&b=), read with useSearchParams inside a Suspense boundary. */}
      <Suspense fallback={<p role="status">Loading…</p>}>
        <CompareView />
      </Suspense>
    </>
  );
}
