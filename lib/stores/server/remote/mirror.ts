import type { RemoteMemoryService } from "./client";
import type { MemoryInput } from "../../memory-schemas";

const PAGE = 500;

/**
 * Copies a remote context's memories into the embedded store, so their full candidate pool can be
 * inspected locally. Only the list endpoint is used (summaries, type, importance, dates): reading
 * contents through `/reference` would count as adoption on the service. Memories already mirrored
 * (same id) are reported as skipped by `add`, so running it again only adds what is new.
 */
export async function mirrorRemoteMemories(
  client: RemoteMemoryService,
  add: (items: MemoryInput[]) => Promise<{ created: number; rejected: number }>,
  options: { limit?: number; onPage?: (seen: number, total: number | null) => void } = {},
): Promise<{ seen: number; created: number; skipped: number }> {
  let offset = 0;
  let seen = 0;
  let created = 0;
  let skipped = 0;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  while (seen < limit) {
    const page = await client.list({ limit: Math.min(PAGE, limit - seen), offset, order_by: "created_at" });
    if (page.memories.length === 0) break;
    const items: MemoryInput[] = page.memories.map((m) => ({
      id: m.id,
      summary: m.summary ?? "",
      ...(m.type ? { type: m.type } : {}),
      ...(typeof m.importance === "number" ? { importance: m.importance } : {}),
      ...(m.created_at ? { created_at: m.created_at } : {}),
    }));
    const outcome = await add(items);
    created += outcome.created;
    skipped += outcome.rejected;
    seen += page.memories.length;
    offset += page.memories.length;
    options.onPage?.(seen, page.total ?? null);
    if (page.has_more === false) break;
  }
  return { seen, created, skipped };
}
