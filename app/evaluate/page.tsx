import type { Metadata } from "next";
import { EvaluateView } from "@/components/evaluate/evaluate-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Evaluate" };

export default function EvaluatePage() {
  return (
    <>
      <PageHeader
        title="Evaluate"
        description="Run a labeled query set against a store: ranking metrics, and whether the confidence level can be trusted to say “worth reading” or “go external”."
      />
      <EvaluateView />
    </>
  );
}
