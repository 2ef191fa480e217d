import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { CompareView } from "@/components/evaluate/compare-view";
import { PageHeader } from "@/components/layout/page-header";
import { abConventionText, canonicalCompareUrl } from "@/lib/charts/compare-order";
import { getPrisma } from "@/lib/db/server";
import { evalRunDates } from "@/lib/eval/server/runs";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Compare runs" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined): string => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/** The API's rule for a run id (app/api/eval-runs/[id]). */
const RunId = z.uuid();

/**
 * Two runs side by side: `/evaluate/compare?a=<id>&b=<id>`. A is the older run (the baseline), B
 * the newer (the change); a URL naming them the other way round is sent to the swapped one, so
 * "B − A" always reads "what changed since" (lib/charts/compare-order.ts).
 */
export default async function ComparePage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const a = one(params.a);
  const b = one(params.b);
  if (RunId.safeParse(a).success && RunId.safeParse(b).success && a.toLowerCase() !== b.toLowerCase()) {
    const runs = await evalRunDates(await getPrisma(), [a, b]);
    const ra = runs.find((r) => r.id === a.toLowerCase());
    const rb = runs.find((r) => r.id === b.toLowerCase());
    if (ra && rb) {
      const canonical = canonicalCompareUrl(
        "/evaluate/compare",
        params,
        { id: ra.id, created_at: ra.createdAt },
        { id: rb.id, created_at: rb.createdAt },
      );
      if (canonical) redirect(canonical);
    }
  }
  return (
    <>
      <PageHeader
        title="Compare runs"
        description={
          <>
            Two runs over the same set: what changed in the metrics, in each query&apos;s rank and level, and which triage
            verdicts flipped. <span data-testid="ab-convention">{abConventionText("run")}</span>
          </>
        }
      />
      {/* The runs come from the URL (?a=&b=), read with useSearchParams: on this dynamic page it never suspends. */}
      <CompareView />
    </>
  );
}
