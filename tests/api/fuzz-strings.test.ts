import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest, callRoute } from "../support/app-under-test";

/**
 * A sweep of the one string rule: every JSON body route of app/api, from a body it accepts, with each string
 * (value and key) in turn replaced by text holding a NUL or an unpaired surrogate, and each value
 * in turn replaced by one nested 40 levels deep. No answer may be a 5xx (nor a what-if stream's
 * error line): bad input is a 4xx in the envelope. The routes of the auth helper (sign-in, keys)
 * are swept too. PGlite, the real embedder, no demo corpus.
 */
const app = appUnderTest("fuzz");
for (const key of Object.keys(process.env)) if (key.startsWith("REMOTE_STORE")) delete process.env[key];

const routes = {
  confidence: await import("@/app/api/confidence/route"),
  datasets: await import("@/app/api/datasets/route"),
  evalRuns: await import("@/app/api/eval-runs/route"),
  keys: await import("@/app/api/keys/route"),
  signin: await import("@/app/api/auth/signin/route"),
  lookup: await import("@/app/api/memories/lookup/route"),
  memories: await import("@/app/api/memories/route"),
  profiles: await import("@/app/api/profiles/route"),
  fit: await import("@/app/api/profiles/fit/route"),
  recall: await import("@/app/api/recall/route"),
  labels: await import("@/app/api/recalls/[id]/labels/route"),
  retention: await import("@/app/api/recalls/retention/route"),
  recalls: await import("@/app/api/recalls/route"),
  storeProfile: await import("@/app/api/stores/[name]/profile/route"),
  views: await import("@/app/api/views/route"),
  whatIf: await import("@/app/api/what-if/route"),
};

type Handler = Parameters<typeof callRoute>[0];
type Target = { name: string; handler: Handler; method: string; body: unknown; params?: Record<string, string> };

const BAD_TEXTS = ["a\u0000b", "a\uD800b"];

function deep(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

/** The status and the text; a JSON Lines stream (the what-if) is read line by line for an error line. */
async function call(target: Target, body: unknown): Promise<{ status: number; text: string; streamError: boolean }> {
  const request = new NextRequest(new URL("/api/fuzz", "http://localhost"), {
    method: target.method,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  try {
    const response = await target.handler(request, { params: Promise.resolve(target.params ?? {}) });
    const text = await response.text();
    const streamError = text.split("\n").some((line) => line.includes('"type":"error"'));
    return { status: response.status, text, streamError };
  } catch (error) {
    return { status: 599, text: `thrown: ${String(error)}`, streamError: false };
  }
}

/** Every variant of `value`: each string and key made bad, each value made 40 deep (iterative over paths). */
function variants(value: unknown): { where: string; body: unknown }[] {
  const out: { where: string; body: unknown }[] = [];
  const visit = (node: unknown, replace: (next: unknown) => unknown, where: string) => {
    out.push({ where: `${where} → 40 deep`, body: replace(deep(40)) });
    if (typeof node === "string") {
      for (const bad of BAD_TEXTS) out.push({ where: `${where} → ${JSON.stringify(bad)}`, body: replace(bad) });
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, (next) => replace(node.map((x, j) => (j === i ? next : x))), `${where}[${i}]`));
    } else if (node && typeof node === "object") {
      const entries = Object.entries(node);
      for (const [key, item] of entries) {
        visit(item, (next) => replace({ ...node, [key]: next }), `${where}.${key}`);
        for (const bad of BAD_TEXTS) {
          const renamed = Object.fromEntries(entries.map(([k, v]) => [k === key ? `${key}${bad}` : k, v]));
          out.push({ where: `${where} key ${JSON.stringify(key + bad)}`, body: replace(renamed) });
        }
      }
    }
  };
  visit(value, (next) => next, "body");
  return out;
}

afterAll(async () => {
  await app.close();
});

describe("fuzz: NUL, unpaired surrogates and deep values in every field of every JSON route", () => {
  let recallId = "";
  beforeAll(async () => {
    const seeded = await callRoute(routes.memories.POST, { body: { memories: [{ id: "m-1", summary: "Kafka consumer lag" }] } });
    expect(seeded.status).toBe(201);
    const recall = await callRoute(routes.recall.POST, { body: { query: "kafka", search_mode: "keyword" } });
    expect(recall.status).toBe(200);
    recallId = recall.json.id;
  }, 120_000);

  const targets = (): Target[] => [
    {
      name: "POST /api/confidence",
      handler: routes.confidence.POST,
      method: "POST",
      body: { hybrid_scores: [0.5, 0.4], thresholds: { name: "t" } },
    },
    {
      name: "POST /api/datasets",
      handler: routes.datasets.POST,
      method: "POST",
      body: { name: "set", items: [{ query: "q", relevant: ["m-1"], id: "i", kind: "paraphrase", tags: ["t"] }] },
    },
    {
      name: "POST /api/eval-runs",
      handler: routes.evalRuns.POST,
      method: "POST",
      body: {
        dataset_id: "00000000-0000-4000-8000-000000000000",
        store: "embedded",
        k: 5,
        search_mode: "hybrid",
        selector: "off",
        profile: "default",
      },
    },
    { name: "POST /api/keys", handler: routes.keys.POST, method: "POST", body: { name: "key", scope: "read" } },
    { name: "POST /api/auth/signin", handler: routes.signin.POST, method: "POST", body: { password: "pw" } },
    { name: "POST /api/memories/lookup", handler: routes.lookup.POST, method: "POST", body: { ids: ["m-1", "m-2"] } },
    {
      name: "POST /api/memories",
      handler: routes.memories.POST,
      method: "POST",
      body: { memories: [{ id: "f-1", summary: "fuzz", content: "c", type: "note", tags: ["t"], importance: 0.5 }] },
    },
    {
      name: "POST /api/profiles",
      handler: routes.profiles.POST,
      method: "POST",
      body: { name: "fz", thresholds: {}, pool_size: 10, description: "d" },
    },
    {
      name: "POST /api/profiles/fit",
      handler: routes.fit.POST,
      method: "POST",
      body: {
        recall_filters: { store: "embedded", level: "high", q: "x", from: "2026-01-01T00:00:00Z" },
        name: "fz2",
        description: "d",
      },
    },
    {
      name: "POST /api/recall",
      handler: routes.recall.POST,
      method: "POST",
      body: {
        store: "embedded",
        query: "kafka",
        k: 3,
        search_mode: "keyword",
        selector: "off",
        filters: { types: ["note"], tags: ["t"], tags_match: "any" },
      },
    },
    {
      name: "PUT /api/recalls/{id}/labels",
      handler: routes.labels.PUT,
      method: "PUT",
      params: { id: recallId },
      body: { present: "yes", results: { "m-1": true }, labeler: "me" },
    },
    {
      name: "POST /api/recalls/retention",
      handler: routes.retention.POST,
      method: "POST",
      body: { keep_days: 36_500, dry_run: true },
    },
    {
      name: "POST /api/recalls",
      handler: routes.recalls.POST,
      method: "POST",
      body: {
        recalls: [
          {
            external_id: "e-1",
            store: "s",
            request: { query: "q", filters: { type: "t" } },
            response: {
              results: [{ memory_id: "m", summary: "s", score: 0.5, context: { a: "b" } }],
              confidence: { level: "low", result_count: 1, rationale: "r" },
              selector: { applied: false, reason: "disabled" },
            },
            created_at: "2026-01-01T00:00:00Z",
          },
        ],
      },
    },
    {
      name: "PUT /api/stores/{name}/profile",
      handler: routes.storeProfile.PUT,
      method: "PUT",
      params: { name: "embedded" },
      body: { profile: "default" },
    },
    {
      name: "POST /api/views",
      handler: routes.views.POST,
      method: "POST",
      body: { page: "history", name: "v", params: "store=embedded" },
    },
    {
      name: "POST /api/what-if",
      handler: routes.whatIf.POST,
      method: "POST",
      body: { profile: "default", filters: { store: "embedded", level: "high" } },
    },
  ];

  it("no 5xx anywhere (and the base bodies themselves are not 5xx)", async () => {
    const failures: string[] = [];
    for (const target of targets()) {
      for (const { where, body } of [{ where: "the base body", body: target.body }, ...variants(target.body)]) {
        const { status, text, streamError } = await call(target, body);
        if (status >= 500 || streamError) failures.push(`${target.name} ${where}: ${status} ${text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
