import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Insights" };

export default function InsightsPage() {
  return (
    <>
      <PageHeader title="Insights" description="How the selector and the confidence signal behave across many recalls." />
      <ComingSoon>
        <p>
          Selector drop rates, the level mix and the weak-hit rate over time, per store and selector model; the memories
          dropped most often; and the recalls where confidence and selector disagree.
        </p>
      </ComingSoon>
    </>
  );
}
