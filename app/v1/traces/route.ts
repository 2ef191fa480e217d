import type { NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/api/route";
import { receiveTraces } from "@/lib/capture/otlp/receive";

export const dynamic = "force-dynamic";

/**
 * OTLP/HTTP trace export (docs/ARCHITECTURE.md "Capture from production"): OpenInference
 * retriever spans become logged recalls (source "otel"); other spans are acknowledged and dropped.
 */
export async function POST(request: NextRequest): Promise<Response> {
  return receiveTraces(request);
}

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
