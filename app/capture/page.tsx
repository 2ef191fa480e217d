import type { Metadata } from "next";
import { CaptureStatusView } from "@/components/capture/capture-status-view";
import { PageHeader } from "@/components/layout/page-header";

export const metadata: Metadata = { title: "Capture" };

export default function CapturePage() {
  return (
    <>
      <PageHeader
        title="Capture"
        description="Recalls captured from production over OpenTelemetry: what each service sent, what was logged, and why spans were refused."
      />
      <CaptureStatusView />
    </>
  );
}
