import { apiRoutes } from "@/lib/api/server/route";
import { readCaptureStatus } from "@/lib/capture/server/otlp/status";
import { getPrisma } from "@/lib/db/server";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  /**
   * The capture-status counters (lib/capture/README.md "Capture from production"): per OTLP service,
   * spans received, retriever spans logged, already logged and rejected with their reasons.
   */
  GET: { scope: "read", handler: async () => readCaptureStatus(await getPrisma()) },
});
