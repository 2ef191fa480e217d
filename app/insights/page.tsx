import type { Metadata } from "next";
import { Suspense } from "react";
import { InsightsView } from "@/components/insights/insights-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Insights" };

export default function InsightsPage() {
  return (
    <>
      <PageHeader
        title="Insights"
        description="How the selector and the confidence signal behave across many recalls: drop rates, the level mix, weak hits, the memories dropped most, and where the two disagree."
      />
      {/* The view reads its range and filters from the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense
        fallback={
          <section className="panel" role="status">
            <p>Loading insights…</p>
          </section>
        }
      >
        <InsightsView />
      </Suspense>
    </>
  );
}
