import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Console" };

export default function ConsolePage() {
  return (
    <>
      <PageHeader
        title="Recall console"
        description="Run a query against a memory store and see why its top hit is, or is not, worth reading."
      />
      <ComingSoon>
        <p>Here you will type a query, pick a store, and see:</p>
        <ul>
          <li>the ranked results, with the memories the selector dropped marked;</li>
          <li>the distribution of candidate scores with the background mean, top score, prominence and thresholds drawn together;</li>
          <li>the confidence level and the rules that produced it.</li>
        </ul>
        <p>Every recall run here is logged and can be reopened from History.</p>
      </ComingSoon>
    </>
  );
}
