import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { WhatIfView } from "@/components/profiles/what-if-view";

export const metadata: Metadata = { title: "What-if" };

export default function WhatIfPage() {
  return (
    <>
      <PageHeader
        title="What-if over history"
        description="Logged recalls' levels recomputed under another threshold profile: the mix before and after, and the recalls that flip."
      />
      <Suspense fallback={<p role="status">Loading…</p>}>
        <WhatIfView />
      </Suspense>
    </>
  );
}
