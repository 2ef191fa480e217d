import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/server/connection";
import { migrate } from "@/lib/db/server/migrator";
import { UseLiteEmbedder } from "@/lib/embeddings/server/use-lite";
import { EmbeddedStore } from "@/lib/stores/server/embedded/embedded-store";
import { readRemoteStoreConfigs, RemoteMemoryService } from "@/lib/stores/server/remote";
import { mirrorRemoteMemories } from "@/lib/stores/server/remote/mirror";
import { scratchDatabase, type ScratchDatabase } from "../support/databases";
import { startFakeMemoryService } from "../support/fake-memory-service";
import { FAKE_API_KEY, FAKE_CONTEXT_ID } from "../support/fake-memory-service-fixtures";

let service: Awaited<ReturnType<typeof startFakeMemoryService>>;
let scratch: ScratchDatabase;
let db: OpenDatabase;
let prisma: PrismaClient;
const embedder = new UseLiteEmbedder(1);

beforeAll(async () => {
  service = await startFakeMemoryService();
  scratch = await scratchDatabase("pglite");
  db = await openDatabase(scratch.config);
  await migrate(db);
  prisma = new PrismaClient({ adapter: db.adapter });
});
afterAll(async () => {
  await embedder.close();
  await service.close();
  await prisma.$disconnect();
  await db.close();
  await scratch.drop();
});

it("copies the remote context's memories through the list endpoint, and only adds what is new on a second run", async () => {
  const [config] = readRemoteStoreConfigs({
    REMOTE_STORE_URL: service.url,
    REMOTE_STORE_API_KEY: FAKE_API_KEY,
    REMOTE_STORE_CONTEXT_ID: FAKE_CONTEXT_ID,
  });
  const client = new RemoteMemoryService(config!);
  const remote = await client.list({ limit: 500 });
  expect(remote.memories.length).toBeGreaterThan(0);

  const store = new EmbeddedStore(prisma, embedder);
  const first = await mirrorRemoteMemories(client, (items) => store.add(items));
  expect(first).toEqual({ seen: remote.memories.length, created: remote.memories.length, skipped: 0 });
  const copy = await store.memories.get(remote.memories[0]!.id);
  expect(copy?.summary).toBe(remote.memories[0]!.summary);

  const again = await mirrorRemoteMemories(client, (items) => store.add(items));
  expect(again).toEqual({ seen: remote.memories.length, created: 0, skipped: remote.memories.length });
  // Only list calls: nothing that would count as adoption on the service.
  expect(service.requests.every((r) => r.method === "GET" && r.path.startsWith("/api/v1/memory/list"))).toBe(true);
});
