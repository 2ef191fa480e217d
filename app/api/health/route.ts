import { apiRoutes } from "@/lib/api/server/route";
import { getDatabase } from "@/lib/db/server";
import { configuredEmbedderId } from "@/lib/embeddings/server/config";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  GET: {
    scope: "public",
    handler: async () => {
      const db = await getDatabase();
      // A live round trip, so "ok" means the database answers, not merely that it once opened.
      await db.prisma.$queryRaw`SELECT 1`;
      return { status: "ok", database: db.kind, embedder: configuredEmbedderId() };
    },
  },
});
