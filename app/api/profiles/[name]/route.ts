import { z } from "zod";
import { apiRoute } from "@/lib/api/route";
import { getPrisma } from "@/lib/db";
import { getProfile } from "@/lib/profiles";

export const dynamic = "force-dynamic";

const Params = z.object({ name: z.string().min(1).max(64) });

export const GET = apiRoute({ params: Params }, async ({ params }) => getProfile(await getPrisma(), params.name));
