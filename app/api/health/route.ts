import { apiRoute, methodNotAllowed } from "@/lib/api/route";
import { getDatabase } from "@/lib/db";
import { configuredEmbedderId } from "@/lib/embeddings/config";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, async () => {
  const db = await getDatabase();
  // A live round trip, so "ok" means the database answers, not merely that it once opened.
  await db.prisma.$queryRaw`SELECT 1`;
  return { status: "ok", database: db.kind, embedder: configuredEmbedderId() };
});

// Other methods answer 405 in the envelope.
export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
