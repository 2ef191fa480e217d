import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { apiRoute, readBodyText } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores";
import { importLines, parseImportBody } from "@/lib/stores/import-body";
import { MemoryListQuerySchema } from "@/lib/stores/memory-schemas";

export const dynamic = "force-dynamic";

/** 10,000 memories with long content fit; anything larger should be split. */
const MAX_IMPORT_BYTES = 32_000_000;

export const GET = apiRoute({ query: MemoryListQuerySchema }, async ({ query }) => {
  const store = await getEmbeddedStore();
  return store.list(query);
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
