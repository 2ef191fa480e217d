import { apiRoute } from "@/lib/api/route";
import { listStores } from "@/lib/stores/registry";

export const dynamic = "force-dynamic";

/** The stores the console can recall from. */
export const GET = apiRoute({}, async () => ({ stores: listStores() }));
