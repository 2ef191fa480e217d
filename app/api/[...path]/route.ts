import { ApiError } from "@/lib/api/errors";
import { apiRoutes } from "@/lib/api/server/route";

// Unknown API paths answer in the envelope too, not with the HTML 404 page (and go through the
// route wrapper's guard and sign-in like every other API path: reading needs `read`, anything else `full`).
const notFound = async ({ request }: { request: Request }): Promise<never> => {
  throw new ApiError(404, "not_found", `There is no API route ${request.method} ${new URL(request.url).pathname}.`);
};

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes({
  GET: { scope: "read", handler: notFound },
  POST: { scope: "full", handler: notFound },
  PUT: { scope: "full", handler: notFound },
  PATCH: { scope: "full", handler: notFound },
  DELETE: { scope: "full", handler: notFound },
});
