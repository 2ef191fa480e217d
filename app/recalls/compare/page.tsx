import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PageHeader } from "@/components/layout/page-header";
import { ComparePicker } from "@/components/recall/compare/compare-picker";
import { CompareView } from "@/components/recall/compare/compare-view";
import { abConventionText, canonicalCompareUrl } from "@/lib/charts/compare-order";
import { getPrisma } from "@/lib/db/server";
import { findRecall } from "@/lib/recall-log/server/repository";
import { isUuid } from "@/lib/validation/uuid";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Compare recalls" };

type Search = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

/**
 * Two logged recalls side by side: `/recalls/compare?a=<id>&b=<id>` (shareable). A is the older
 * (the baseline), B the newer (the change): a URL that names them the other way round is sent to
 * the swapped one, so every comparison reads the same way (lib/charts/compare-order.ts).
 */
export default async function CompareRecallsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const a = one(params.a);
  const b = one(params.b);
  const prisma = a && b ? await getPrisma() : null;
  const [ra, rb] = await Promise.all([a, b].map((id) => (prisma && isUuid(id) ? findRecall(prisma, id) : Promise.resolve(null))));
  if (ra && rb) {
    const canonical = canonicalCompareUrl("/recalls/compare", params, ra, rb);
    if (canonical) redirect(canonical);
  }
  const missing = [...(a && !ra ? [`A (${a})`] : []), ...(b && !rb ? [`B (${b})`] : [])];
  return (
    <>
      <PageHeader
        title="Compare recalls"
        description={
          <>
            Two logged recalls side by side: their levels, both pools on one score axis, and how each memory&apos;s rank moved.{" "}
            <span data-testid="ab-convention">{abConventionText("recall")}</span>
          </>
        }
        actions={<Link href="/recalls">All recalls</Link>}
      />
      {ra && rb ? (
        <CompareView a={ra} b={rb} />
      ) : (
        <ComparePicker
          a={a}
          b={b}
          problem={
            missing.length > 0
              ? `No logged recall has the id ${missing.join(" or ")}; check the ids (a recall may have been removed by retention).`
              : null
          }
        />
      )}
    </>
  );
}
