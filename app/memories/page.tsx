import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Memories" };

export default function MemoriesPage() {
  return (
    <>
      <PageHeader title="Memories" description="The embedded store: the memories recalls are answered from." />
      <ComingSoon>
        <p>Browse and search the embedded store, import memories in batches (JSON or JSON Lines), and delete them.</p>
      </ComingSoon>
    </>
  );
}
