import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditStatus } from "@/lib/audit/types";
import { callRoute } from "../support/call-route";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_API_KEY, FAKE_CONTEXT_ID, FAKE_MEMORIES } from "../support/fake-memory-service-fixtures";

/**
 * The audit of a remote store through the real client and the loopback double of the
 * memory service: the number of calls is stated and must be confirmed before anything is
 * recalled, and the audit then makes exactly that many calls.
 */
const fake = await startFakeMemoryService();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-audit-remote-"));
process.env.PGLITE_DATA_DIR = path.join(scratch, "data");
process.env.DEMO_CORPUS = "off";
delete process.env.DATABASE_URL;
for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE_")) delete process.env[key];
process.env.REMOTE_STORES = JSON.stringify([
  { name: "fake", base_url: fake.url, api_key: FAKE_API_KEY, context_id: FAKE_CONTEXT_ID, timeout_ms: 3000 },
]);

const auditRoute = await import("@/app/api/stores/[name]/audit/route");
const { auditFinished } = await import("@/lib/audit/server/jobs");

afterAll(async () => {
  await fake.close();
  const { getDatabase } = await import("@/lib/db/server");
  const db = await getDatabase();
  await db.prisma.$disconnect();
  await db.raw.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const start = (body: unknown) => callRoute(auditRoute.POST, { url: "/api/stores/fake/audit", body, params: { name: "fake" } });
const recalls = () => fake.requests.filter((r) => r.path === "/api/v1/memory/recall").length;

describe("auditing a remote store", () => {
  it("states the calls, recalls nothing until they are confirmed, then makes exactly them", async () => {
    const refused = await start({});
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: "confirmation_required", details: { memories: FAKE_MEMORIES.length } });
    const calls = refused.json.details.calls as number;
    expect(calls).toBe(FAKE_MEMORIES.length + 1);
    expect(refused.json.message).toContain(`${calls} calls`);
    expect((await start({ confirm_calls: calls + 1 })).status).toBe(409);
    expect(recalls()).toBe(0);

    fake.reset();
    const started = await start({ confirm_calls: calls });
    expect(started.status).toBe(202);
    await auditFinished("fake");
    const { json } = await callRoute(auditRoute.GET, { url: "/api/stores/fake/audit", params: { name: "fake" } });
    const status = json as AuditStatus;
    expect(status.state).toBe("done");
    expect(status.result).toMatchObject({ kind: "remote", version: null, memories: FAKE_MEMORIES.length });
    const made = fake.requests.filter((r) => r.path.startsWith("/api/v1/memory/")).length;
    // The stats call that planned the calls, then the stated calls.
    expect(made - 1).toBe(calls);
    expect(recalls()).toBe(status.result!.probe_recalls);
    // The double answers the same page to every query: whatever is not on it is unreachable, with no pool to say why.
    for (const f of status.result!.findings) {
      expect(f.unreachable!.modes).toEqual(["hybrid"]);
      expect(f.unreachable!.reasons[0]!.reason).toBe("pool_not_exposed");
    }
    expect(status.result!.scope).toContain("Remote store");
  }, 60_000);
});

describe("calibrating a remote store", () => {
  const calibrations = async () => import("@/app/api/profiles/calibrations/route");
  const calibrate = async (body: unknown) => callRoute((await calibrations()).POST, { url: "/api/profiles/calibrations", body });

  it("states the recalls it would send and sends none until they are confirmed", async () => {
    fake.reset();
    const refused = await calibrate({ store: "fake" });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe("confirmation_required");
    const planned = refused.json.details.recalls as number;
    expect(planned).toBeGreaterThanOrEqual(500);
    expect(refused.json.message).toContain(`confirm_recalls: ${planned}`);
    expect((await calibrate({ store: "fake", confirm_recalls: planned - 1 })).status).toBe(409);
    expect(recalls()).toBe(0);

    const started = await calibrate({ store: "fake", confirm_recalls: planned });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ store: "fake", recalls: planned });
    const { calibrationIdle } = await import("@/lib/profiles/server/store-calibration");
    await calibrationIdle("fake");
    expect(recalls()).toBe(planned);
  }, 120_000);
});
