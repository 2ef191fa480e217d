/**
 * Another origin for the cross-site specs (e2e/security.spec.ts): a blank page on a second
 * loopback port, from which a test plays the attacker's site (forms, fetches, iframes).
 *   node --import tsx e2e/support/other-origin.ts --port 3215
 */
import http from "node:http";

const at = process.argv.indexOf("--port");
const port = Number(at >= 0 ? process.argv[at + 1] : NaN);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: other-origin.ts --port <port>");
  process.exit(1);
}

const server = http.createServer((req, res) => {
  if (req.url === "/health") {
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    return;
  }
  res
    .writeHead(200, { "content-type": "text/html; charset=utf-8" })
    .end("<!doctype html><title>Another site</title><h1>Another site</h1>");
});
server.listen(port, "127.0.0.1", () => console.log(`other-origin listening on http://127.0.0.1:${port}`));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
