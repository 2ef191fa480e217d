import { NextRequest } from "next/server";

type Handler = (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** Calls a route handler in-process the way Next does, returning status and parsed JSON. */
export async function callRoute(
  handler: Handler,
  init: {
    method?: string;
    url?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    params?: Record<string, string>;
  } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped library boundary
): Promise<{ status: number; json: any }> {
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const request = new NextRequest(new URL(init.url ?? "/api/test", "http://localhost"), {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    body,
    headers: { "content-type": "application/json", ...init.headers },
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? {}) });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}
