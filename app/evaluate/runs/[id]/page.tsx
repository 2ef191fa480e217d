import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { z } from "zod";
import { RunReportView } from "@/components/evaluate/run-report-view";
import { PageHeader } from "@/components/layout/page-header";
import { getPrisma } from "@/lib/db/server";
import { evalRunDates } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Evaluation run" };

/** The API's own rule for a run id (app/api/eval-runs/[id]), so the page and the API agree on what is malformed. */
const RunId = z.uuid();

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An unknown or malformed id is a 404 page (not-found.tsx) answered with status 404, as an
  // unknown recall is, rather than a "Loading…" that turns into an error under a 200.
  if (!RunId.safeParse(id).success) notFound();
  const [run] = await evalRunDates(await getPrisma(), [id]);
  if (!run) notFound();
  return (
    <>
      <PageHeader
        title="Evaluation run"
        description="How this store ranked the labeled queries, and how far its confidence level can be trusted."
      />
      {/* The query table keeps its sort in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<p role="status">Loading the run…</p>}>
        <RunReportView id={run.id} />
      </Suspense>
    </>
  );
}
