/**
 * A route handler served over real HTTP the way `next start` sends its answer: the request
 * becomes a NextRequest, and the handler's Response goes out through Next's own `sendResponse`
 * (next/dist/server/send-response), which is where the framework drops `Content-Encoding`,
 * `Content-Length` and `Transfer-Encoding` from route-handler answers. A test that calls the
 * handler in-process sees the Response before that step; a client of this server sees what a
 * client of the real server sees (lib/capture/README.md "Capture from production").
 *
 * Next's router (routing, its request proxy, method checks) is not here: `next start` in the e2e
 * covers those.
 */
import { NodeNextRequest, NodeNextResponse } from "next/dist/server/base-http/node";
import { sendResponse } from "next/dist/server/send-response";
import { NextRequest } from "next/server";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export interface NextRouteServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close: () => Promise<void>;
}

/** Serves `handle(request, url)` on 127.0.0.1 (a free port). */
export async function serveLikeNext(handle: (request: NextRequest) => Promise<Response>): Promise<NextRouteServer> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const headers = new Headers();
      for (let h = 0; h + 1 < req.rawHeaders.length; h += 2) headers.append(req.rawHeaders[h]!, req.rawHeaders[h + 1]!);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const init: Record<string, unknown> = { method: req.method, headers };
      if (hasBody) Object.assign(init, { body: Readable.toWeb(req), duplex: "half" });
      const request = new NextRequest(
        `http://${req.headers.host}${req.url}`,
        init as ConstructorParameters<typeof NextRequest>[1],
      );
      const response = await handle(request);
      await sendResponse(new NodeNextRequest(req as never), new NodeNextResponse(res), response);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`next-route-server: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
