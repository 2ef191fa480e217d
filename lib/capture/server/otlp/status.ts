import "server-only";
import type { PrismaClient } from "@prisma/client";
import { replaceBadText } from "@/lib/validation/input-rules";
import type { CaptureStatus } from "../../otlp/status-schema";

/**
 * The capture-status counters (lib/capture/README.md "Capture from production"): what each OTLP
 * service sent and what became of it. An exporter never shows the `partial_success` of its
 * answers to anyone, so this is where a person sees that spans arrive and why some are refused.
 * Counters are incremented in place (INSERT … ON CONFLICT DO UPDATE), so several instances on one
 * PostgreSQL add up rather than overwrite each other.
 */

/** What one export did, per service. */
export interface ServiceTally {
  received: number;
  retrievers: number;
  logged: number;
  duplicates: number;
  rejected: number;
  /** Rejections by reason code: how many, and one message as an example. */
  reasons: Map<string, { count: number; message: string }>;
}

export function emptyTally(): ServiceTally {
  return { received: 0, retrievers: 0, logged: 0, duplicates: 0, rejected: 0, reasons: new Map() };
}

/** A span without a resource `service.name` is counted under this name. */
export const UNNAMED_SERVICE = "(no service.name)";
const SERVICE_MAX = 200;
const MESSAGE_MAX = 500;

/** The service name as stored: text PostgreSQL can hold, at most 200 characters. */
export function serviceName(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  return name === "" ? UNNAMED_SERVICE : replaceBadText(name.slice(0, SERVICE_MAX));
}

/** Adds one export's tallies to the counters: one statement per service, one per reason. */
export async function recordTallies(
  prisma: PrismaClient,
  tallies: ReadonlyMap<string, ServiceTally>,
  at = new Date(),
): Promise<void> {
  for (const [service, t] of tallies) {
    const logged = t.logged > 0 ? at : null;
    const rejected = t.rejected > 0 ? at : null;
    await prisma.$executeRaw`
      INSERT INTO "capture_service_counts" AS c
        ("service", "received", "retrievers", "logged", "duplicates", "rejected",
         "first_seen_at", "last_seen_at", "last_logged_at", "last_rejected_at")
      VALUES (${service}, ${t.received}, ${t.retrievers}, ${t.logged}, ${t.duplicates}, ${t.rejected},
              ${at}, ${at}, ${logged}, ${rejected})
      ON CONFLICT ("service") DO UPDATE SET
        "received" = c."received" + EXCLUDED."received",
        "retrievers" = c."retrievers" + EXCLUDED."retrievers",
        "logged" = c."logged" + EXCLUDED."logged",
        "duplicates" = c."duplicates" + EXCLUDED."duplicates",
        "rejected" = c."rejected" + EXCLUDED."rejected",
        -- Exports of one service may be recorded out of order (instances, connections): the
        -- earliest and latest times win, not the last statement.
        "first_seen_at" = LEAST(c."first_seen_at", EXCLUDED."first_seen_at"),
        "last_seen_at" = GREATEST(c."last_seen_at", EXCLUDED."last_seen_at"),
        -- GREATEST ignores NULLs: an export that logged nothing keeps the last time one did.
        "last_logged_at" = GREATEST(c."last_logged_at", EXCLUDED."last_logged_at"),
        "last_rejected_at" = GREATEST(c."last_rejected_at", EXCLUDED."last_rejected_at")`;
    for (const [reason, { count, message }] of t.reasons) {
      const text = replaceBadText(message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message);
      await prisma.$executeRaw`
        INSERT INTO "capture_rejections" AS r ("service", "reason", "count", "last_message", "last_at")
        VALUES (${service}, ${reason}, ${count}, ${text}, ${at})
        ON CONFLICT ("service", "reason") DO UPDATE SET
          "count" = r."count" + EXCLUDED."count",
          "last_message" = CASE WHEN EXCLUDED."last_at" >= r."last_at" THEN EXCLUDED."last_message" ELSE r."last_message" END,
          "last_at" = GREATEST(r."last_at", EXCLUDED."last_at")`;
    }
  }
}

/** Every service that sent spans, the most recent first, with its rejection reasons. */
export async function readCaptureStatus(prisma: PrismaClient): Promise<CaptureStatus> {
  const [services, reasons] = await Promise.all([
    prisma.captureServiceCount.findMany({ orderBy: [{ lastSeenAt: "desc" }, { service: "asc" }] }),
    prisma.captureRejection.findMany({ orderBy: [{ count: "desc" }, { reason: "asc" }] }),
  ]);
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    services: services.map((s) => ({
      service: s.service,
      received: Number(s.received),
      retrievers: Number(s.retrievers),
      logged: Number(s.logged),
      duplicates: Number(s.duplicates),
      rejected: Number(s.rejected),
      first_seen_at: s.firstSeenAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      last_logged_at: iso(s.lastLoggedAt),
      last_rejected_at: iso(s.lastRejectedAt),
      rejections: reasons
        .filter((r) => r.service === s.service)
        .map((r) => ({ reason: r.reason, count: Number(r.count), last_message: r.lastMessage, last_at: r.lastAt.toISOString() })),
    })),
  };
}
