import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { readCaptureStatus } from "@/lib/capture/otlp/status";
import { getPrisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * The capture-status counters (docs/ARCHITECTURE.md "Capture from production"): per OTLP service,
 * spans received, retriever spans logged, already logged and rejected with their reasons.
 */
export const GET = apiRoute({}, async () => readCaptureStatus(await getPrisma()));

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
