import type { Metadata } from "next";
import { Suspense } from "react";
import { RecallConsole } from "@/components/console/recall-console";
import { PageHeader } from "@/components/layout/page-header";

// The layout's title template applies to pages below it, not to this page beside it.
export const metadata: Metadata = { title: { absolute: "Console · Recall Inspector" } };

export default function ConsolePage() {
  return (
    <>
      <PageHeader
        title="Recall console"
        description="Run a query against a memory store and see why its top hit is, or is not, worth reading."
      />
      <Suspense fallback={<p role="status">Loading the console…</p>}>
        <RecallConsole />
      </Suspense>
    </>
  );
}
