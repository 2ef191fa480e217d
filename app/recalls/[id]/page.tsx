import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/layout/page-header";
import { RecallResultView } from "@/components/recall/recall-result-view";
import { getPrisma } from "@/lib/db/server";
import { findRecall } from "@/lib/recall-log/server/repository";
import { isUuid } from "@/lib/validation/uuid";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Recall" };

/** One logged recall, redrawn from the log exactly as the console showed it. */
export default async function RecallDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const view = await findRecall(await getPrisma(), id);
  if (!view) notFound();
  return (
    <>
      <PageHeader
        title="Logged recall"
        description={<span className="mono">{view.id}</span>}
        actions={
          <>
            <Link href={`/?recall=${view.id}`}>Open in console</Link> · <Link href="/recalls">All recalls</Link>
          </>
        }
      />
      <RecallResultView view={view} showPermalink={false} />
    </>
  );
}
