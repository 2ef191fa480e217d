import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  emptyTally,
  readCaptureStatus,
  recordTallies,
  serviceName,
  UNNAMED_SERVICE,
  type ServiceTally,
} from "@/lib/capture/server/otlp/status";
import { DATABASE_KINDS, migratedDatabase, type MigratedDatabase } from "@/tests/support/databases";

/**
 * The capture-status counters on both databases (lib/capture/README.md "Capture from
 * production"): exports recorded at the same time — as several instances on one PostgreSQL do,
 * each through its own connection — add up exactly; the latest times and message win.
 */
function tally(over: Partial<Omit<ServiceTally, "reasons">>, reasons: [string, number, string][] = []): ServiceTally {
  const t = { ...emptyTally(), ...over };
  for (const [code, count, message] of reasons) t.reasons.set(code, { count, message });
  return t;
}

describe.each(DATABASE_KINDS)("capture-status counters on %s", (kind) => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    database = await migratedDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is empty before any export", async () => {
    expect(await readCaptureStatus(database.prisma)).toEqual({ services: [] });
  });

  it("50 exports recorded at once add up exactly, per service and per reason", async () => {
    const base = Date.UTC(2026, 11, 3, 10, 0, 0);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        recordTallies(
          database.prisma,
          new Map([
            [
              "agent-a",
              tally({ received: 3, retrievers: 2, logged: i % 2 === 0 ? 1 : 0, duplicates: i % 2, rejected: 1 }, [
                ["no_query", 1, `span ${i}: input.value (the query) is missing or empty`],
              ]),
            ],
            ["agent-b", tally({ received: 1 })],
          ]),
          new Date(base + i * 1000),
        ),
      ),
    );
    // An export that logged nothing later keeps the time of the last one that did.
    await recordTallies(database.prisma, new Map([["agent-a", tally({ received: 1 })]]), new Date(base + 100_000));

    const { services } = await readCaptureStatus(database.prisma);
    expect(services.map((s) => s.service)).toEqual(["agent-a", "agent-b"]);
    const [a, b] = services;
    expect(a).toMatchObject({ received: 151, retrievers: 100, logged: 25, duplicates: 25, rejected: 50 });
    expect(a!.first_seen_at).toBe(new Date(base).toISOString());
    expect(a!.last_seen_at).toBe(new Date(base + 100_000).toISOString());
    expect(a!.last_logged_at).toBe(new Date(base + 48_000).toISOString());
    expect(a!.last_rejected_at).toBe(new Date(base + 49_000).toISOString());
    expect(a!.rejections).toEqual([
      {
        reason: "no_query",
        count: 50,
        last_message: "span 49: input.value (the query) is missing or empty",
        last_at: new Date(base + 49_000).toISOString(),
      },
    ]);
    expect(b).toMatchObject({ received: 50, retrievers: 0, logged: 0, rejected: 0, last_logged_at: null, rejections: [] });
  });

  it("a service name and a message the database cannot store are made storable", async () => {
    const name = serviceName("svc\u0000\uD800");
    expect(name).toBe("svc\uFFFD\uFFFD");
    expect(serviceName("  ")).toBe(UNNAMED_SERVICE);
    expect(serviceName(undefined)).toBe(UNNAMED_SERVICE);
    expect(serviceName("x".repeat(500))).toHaveLength(200);
    await recordTallies(
      database.prisma,
      new Map([[name, tally({ received: 1, rejected: 1 }, [["invalid_recall", 1, "bad \u0000 text"]])]]),
    );
    const stored = (await readCaptureStatus(database.prisma)).services.find((s) => s.service === name)!;
    expect(stored.rejections[0]!.last_message).toBe("bad \uFFFD text");
  });
});
