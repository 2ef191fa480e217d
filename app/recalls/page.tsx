import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "History" };

export default function HistoryPage() {
  return (
    <>
      <PageHeader title="Recall history" description="Every logged recall: run in the console or ingested from production." />
      <ComingSoon>
        <p>
          A filterable table of logged recalls (store, level, selector drops, text, time range) with shareable filters,
          each row opening the same view the console shows, plus CSV and JSON Lines export.
        </p>
      </ComingSoon>
    </>
  );
}
