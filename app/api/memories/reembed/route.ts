import { apiRoute } from "@/lib/api/route";
import { getEmbeddedStore } from "@/lib/stores";

export const dynamic = "force-dynamic";

/** Embeds again every memory whose vector is missing or from another model than the app's. */
export const POST = apiRoute({}, async () => (await getEmbeddedStore()).reembed());
