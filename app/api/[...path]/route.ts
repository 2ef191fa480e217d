import { ApiError, errorResponse } from "@/lib/api/errors";

// Unknown API paths answer in the envelope too, not with the HTML 404 page.
function notFound(request: Request) {
  const { pathname } = new URL(request.url);
  return errorResponse(new ApiError(404, "not_found", `There is no API route ${request.method} ${pathname}.`));
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
