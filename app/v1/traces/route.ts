import { apiRoutes } from "@/lib/api/server/route";
import { receiveTraces } from "@/lib/capture/server/otlp/receive";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP trace export (lib/capture/README.md "Capture from production"): OpenInference
 * retriever spans become logged recalls (source "otel"); other spans are acknowledged and dropped.
 * It reads protobuf or JSON and answers in OTLP's own format, so it runs its own guard.
 */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  POST: { scope: "ingest", raw: (request, { scope }) => receiveTraces(request, scope) },
});
