import { ApiError } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/route";

// Unknown API paths answer in the envelope too, not with the HTML 404 page (and go through the
// route wrapper's guard and sign-in like every other API path).
const notFound = apiRoute({}, async ({ request }) => {
  throw new ApiError(404, "not_found", `There is no API route ${request.method} ${request.nextUrl.pathname}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
