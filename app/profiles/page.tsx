import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/layout/page-header";
import { ProfilesView } from "@/components/profiles/profiles-view";

export const metadata: Metadata = { title: "Profiles" };

export default function ProfilesPage() {
  return (
    <>
      <PageHeader
        title="Threshold profiles"
        description="The reference rules' constants as data: which store judges with which, fitted from labels, checked by cross-validation."
      />
      <Suspense fallback={<p role="status">Loading profiles…</p>}>
        <ProfilesView />
      </Suspense>
    </>
  );
}
