import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Sign-in and the API keys that scripts and agents use to reach this dashboard." />
      <ApiKeysPanel />
    </>
  );
}
