import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, readBodyText, methodNotAllowed } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores/embedded";
import { importLines, parseImportBody } from "@/lib/stores/import-body";
import { MemoryListQuerySchema } from "@/lib/stores/memory-schemas";
import { isRemoteMemorySource, listRemoteMemories } from "@/lib/stores/remote/remote-memories";
import { resolveStore } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** 10,000 memories with long content fit; anything larger should be split. */
const MAX_IMPORT_BYTES = 32_000_000;

/**
 * A page of memories, `{items, next_cursor, total}`. Without `store` (or `store=embedded`) the
 * embedded store's; with a remote store's name, that service's list of its configured context
 * (read-only, no tag filter; the cursor carries the service's offset).
 */
export const GET = apiRoute({ query: MemoryListQuerySchema }, async ({ query, request }) => {
  const { store: name, ...rest } = query;
  if (!name || name === "embedded") {
    const store = await getEmbeddedStore();
    return store.memories.list(query);
  }
  const store = await resolveStore(name);
  if (!isRemoteMemorySource(store)) return (await getEmbeddedStore()).memories.list(rest);
  try {
    return await listRemoteMemories(store, rest, request.signal);
  } catch (error) {
    if (request.signal.aborted) throw new ApiError(499, "client_closed_request", "The request was cancelled.");
    throw error;
  }
});

/** Adds a batch: `{ memories: [...] }` as JSON, or JSON Lines. Per-item results; 201 when any was created. */
export const POST = apiRoute({}, async ({ request }) => {
  const text = await readBodyText(request, MAX_IMPORT_BYTES);
  const parsed = parseImportBody(text, request.headers.get("content-type"));
  if (!parsed.ok) throw new ApiError(parsed.status, parsed.code, parsed.message, parsed.details);
  const store = await getEmbeddedStore();
  const outcome = await importLines(parsed.lines, (items) => store.add(items));
  return NextResponse.json(outcome, { status: outcome.created > 0 ? 201 : 200 });
});

// Other methods answer 405 in the envelope.
export const PUT = methodNotAllowed(["GET", "POST"]);
export const PATCH = methodNotAllowed(["GET", "POST"]);
export const DELETE = methodNotAllowed(["GET", "POST"]);
