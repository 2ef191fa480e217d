import { apiRoute } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, async () => (await getEmbeddedStore()).stats());
