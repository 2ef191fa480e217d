/**
 * What the fake memory service (fake-memory-service.ts) answers by default: the §3.4 REST
 * examples of docs/memory-service-api.md (a full, an empty, a degraded and a selector answer),
 * and the real variants a client meets (the service's older documented answer; extra fields and
 * reordered keys),
 * the service's error envelope, the key and context it accepts, and the small fixed corpus of its
 * list and stats routes. Tests import these to script answers and to state what they expect.
 *
 * Self-contained on purpose, like the fake: it must not share the client's decoders.
 */

export const FAKE_API_KEY = "kagura_fake-test-key-0123456789abcdefghijklmnopq";
export const FAKE_CONTEXT_ID = "7d4b8c2e-1f3a-4e5b-9c6d-0a1b2c3d4e5f";

// ---------------------------------------------------------------------------------------------
// Fixture responses (spec §3.4)

/** Golden case S-1 ("PRESENT") as the service serializes it. */
export const S1_CONFIDENCE = {
  level: "high",
  top_score: 0.919,
  prominence: 0.559,
  relative_margin: 4.989,
  result_count: 8,
  rationale:
    "Top semantic cosine 0.92, prominence 0.56 above the candidate-pool mean (0.59); top hit is a strong, clearly-separated match.",
} as const;

/** The fallback block of a degraded (keyword-only) recall, as the service serializes it: no prominence. */
export const DEGRADED_CONFIDENCE = {
  level: "high",
  top_score: 12.7,
  relative_margin: 3.2,
  result_count: 5,
  rationale:
    "Keyword-only pool: top hit sits 3.20 background-std-devs above the candidate-pool background; clear separation from background.",
} as const;

/** The §3.4 REST example, with three results (null keys omitted, as the REST route does). */
export function fullRecallResponse(): Record<string, unknown> {
  return {
    results: [
      {
        memory_id: "3f1c2a9e-8b7d-4c6e-a5f4-1e2d3c4b5a69",
        summary: "JWT expiry caused 401 errors after the Friday deploy",
        type: "bug-fix",
        importance: 0.8,
        scope: "persistent",
        created_at: "2026-06-01T09:12:00Z",
        updated_at: "2026-06-10T11:00:00Z",
        client: "mcp",
        tags: ["auth", "jwt"],
        score: 0.9333,
        contradicts: [],
      },
      {
        memory_id: "5b2e7c1d-4a3f-4e8b-9d6c-2f1e0d9c8b7a",
        summary: "Refresh access tokens 60 seconds before they expire",
        context_summary: "Fix for the 401 storm",
        type: "decision",
        importance: 0.6,
        scope: "persistent",
        created_at: "2026-06-02T10:00:00Z",
        client: "api",
        tags: ["auth"],
        score: 0.6,
        contradicts: [],
        source_type: "manual",
      },
      {
        memory_id: "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f",
        summary: "Auth service runbook: rotating signing keys",
        type: "note",
        importance: 0.5,
        scope: "working",
        created_at: "2026-05-20T08:00:00Z",
        client: "mcp",
        tags: ["auth", "runbook"],
        score: 0.342857,
        contradicts: [],
      },
    ],
    related_tags: [
      { tag: "auth", count: 3, sample_summary: "JWT expiry caused 401 errors after the Friday deploy" },
      { tag: "jwt", count: 1, sample_summary: "JWT expiry caused 401 errors after the Friday deploy" },
      { tag: "runbook", count: 1, sample_summary: "Auth service runbook: rotating signing keys" },
    ],
    confidence: { ...S1_CONFIDENCE },
  };
}

/** An empty pool: the confidence nulls are omitted (REST). */
export function emptyRecallResponse(): Record<string, unknown> {
  return {
    results: [],
    related_tags: [],
    confidence: {
      level: "none",
      result_count: 0,
      rationale: "No candidates retrieved — likely nothing relevant in this context.",
    },
  };
}

/** A degraded hybrid recall: BM25 only, fallback confidence, no prominence. */
export function degradedRecallResponse(): Record<string, unknown> {
  return {
    results: [
      {
        memory_id: "3f1c2a9e-8b7d-4c6e-a5f4-1e2d3c4b5a69",
        summary: "JWT expiry caused 401 errors after the Friday deploy",
        type: "bug-fix",
        importance: 0.8,
        scope: "persistent",
        created_at: "2026-06-01T09:12:00Z",
        client: "mcp",
        tags: ["auth", "jwt"],
        score: 12.7,
        contradicts: [],
      },
      {
        memory_id: "5b2e7c1d-4a3f-4e8b-9d6c-2f1e0d9c8b7a",
        summary: "Refresh access tokens 60 seconds before they expire",
        type: "decision",
        importance: 0.6,
        scope: "persistent",
        created_at: "2026-06-02T10:00:00Z",
        client: "api",
        tags: ["auth"],
        score: 4.1,
        contradicts: [],
      },
    ],
    related_tags: [{ tag: "auth", count: 2, sample_summary: "JWT expiry caused 401 errors after the Friday deploy" }],
    confidence: { ...DEGRADED_CONFIDENCE },
    degraded: true,
    degraded_reason: "embedding_unavailable",
  };
}

/** The full response with an applied selector block (the second and third results dropped). */
export function selectorRecallResponse(): Record<string, unknown> {
  const full = fullRecallResponse();
  const results = full.results as Record<string, unknown>[];
  return {
    ...full,
    results: results.slice(0, 1),
    selector: {
      applied: true,
      model: "claude-haiku-4-5",
      kept: 1,
      dropped: 2,
      dropped_memory_ids: results.slice(1).map((r) => r.memory_id),
    },
  };
}

/**
 * The service's older documented answer (its API reference before the confidence block): results
 * name the memory `id`, the page carries a `total`, and there is no `confidence`, `related_tags`
 * or `memory_id`.
 */
export function olderRecallResponse(): Record<string, unknown> {
  return {
    results: [
      {
        id: "3f1c2a9e-8b7d-4c6e-a5f4-1e2d3c4b5a69",
        summary: "JWT expiry caused 401 errors after the Friday deploy",
        context_summary: "Postmortem of the Friday deploy",
        score: 0.95,
        created_at: "2026-06-01T09:12:00Z",
      },
      {
        id: "5b2e7c1d-4a3f-4e8b-9d6c-2f1e0d9c8b7a",
        summary: "Refresh access tokens 60 seconds before they expire",
        context_summary: "Fix for the 401 storm",
        score: 0.41,
        created_at: "2026-06-02T10:00:00Z",
      },
      {
        id: "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f",
        summary: "Auth service runbook: rotating signing keys",
        context_summary: null,
        score: 0.38,
        created_at: "2026-05-20T08:00:00Z",
      },
    ],
    total: 3,
  };
}

/**
 * The full answer as a newer service might write it: keys in another order at every level, and
 * fields this description does not list (at the top, in a result, in the confidence block).
 */
export function variantRecallResponse(): Record<string, unknown> {
  const full = fullRecallResponse();
  const reorder = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
  return {
    request_id: "req_01J9ZK3V7B6Q",
    confidence: reorder({ ...S1_CONFIDENCE, calibration: "v2", pool_mean: 0.59 }),
    related_tags: full.related_tags,
    results: (full.results as Record<string, unknown>[]).map((r, i) =>
      reorder({ ...r, rank: i + 1, highlights: [{ field: "summary", start: 0, end: 3 }], access_count: 12 }),
    ),
    latency_ms: 41.2,
  };
}

/** The service's error envelope for a status, as its handlers write it. */
export function errorEnvelope(
  status: number,
  overrides: { error?: string; message?: string; details?: Record<string, unknown> } = {},
) {
  const defaults: Record<number, { error: string; message: string; details: Record<string, unknown> }> = {
    401: { error: "HTTP-401", message: "Invalid or expired API key", details: {} },
    403: { error: "HTTP-403", message: "This endpoint requires a user session; API keys are not accepted", details: {} },
    404: { error: "HTTP-404", message: "Context not found", details: {} },
    422: {
      error: "VAL-001",
      message: "Request validation failed",
      details: { errors: [{ loc: ["body", "k"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }] },
    },
    429: { error: "HTTP-429", message: "Too many requests", details: {} },
    500: { error: "HTTP-500", message: "Internal server error", details: {} },
    503: { error: "HTTP-503", message: "Database unavailable", details: {} },
  };
  const base = defaults[status] ?? { error: `HTTP-${status}`, message: `HTTP ${status}`, details: {} };
  return { ...base, ...overrides };
}

export interface FakeMemoryRow {
  id: string;
  summary: string;
  type: string;
  scope: "working" | "persistent";
  importance: number;
  created_at: string;
  updated_at: string;
  tags: string[];
}

export const FAKE_MEMORIES: readonly FakeMemoryRow[] = [
  {
    id: "3f1c2a9e-8b7d-4c6e-a5f4-1e2d3c4b5a69",
    summary: "JWT expiry caused 401 errors after the Friday deploy",
    type: "bug-fix",
    scope: "persistent",
    importance: 0.8,
    created_at: "2026-06-01T09:12:00Z",
    updated_at: "2026-06-10T11:00:00Z",
    tags: ["auth", "jwt"],
  },
  {
    id: "5b2e7c1d-4a3f-4e8b-9d6c-2f1e0d9c8b7a",
    summary: "Refresh access tokens 60 seconds before they expire",
    type: "decision",
    scope: "persistent",
    importance: 0.6,
    created_at: "2026-06-02T10:00:00Z",
    updated_at: "2026-06-02T10:00:00Z",
    tags: ["auth"],
  },
  {
    id: "9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f",
    summary: "Auth service runbook: rotating signing keys",
    type: "note",
    scope: "working",
    importance: 0.5,
    created_at: "2026-05-20T08:00:00Z",
    updated_at: "2026-05-20T08:00:00Z",
    tags: ["auth", "runbook"],
  },
  {
    id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    summary: "Daily standup is at 09:30 Berlin time",
    type: "schedule",
    scope: "persistent",
    importance: 0.3,
    created_at: "2026-05-01T07:00:00Z",
    updated_at: "2026-05-01T07:00:00Z",
    tags: ["meetings"],
  },
];
