import { describe, expect, it } from "vitest";
import {
  contentCodings,
  decodedResponseHeaders,
  downstreamResponseHeaders,
  upstreamRequestHeaders,
  withoutSessionCookie,
} from "./proxy-headers";

describe("upstreamRequestHeaders", () => {
  it("forwards the agent's headers, its Authorization included, as sent, but asks for identity", () => {
    const out = upstreamRequestHeaders([
      ["Authorization", "Bearer kagura_agent"],
      ["Content-Type", "application/json"],
      ["Accept-Encoding", "gzip, br"],
      ["X-Request-Id", "abc"],
      ["User-Agent", "agent/1.0"],
    ]);
    expect(out).toEqual({
      authorization: "Bearer kagura_agent",
      "content-type": "application/json",
      // Next drops Content-Encoding from the answer: the service is asked for uncompressed bytes.
      "accept-encoding": "identity",
      "x-request-id": "abc",
      "user-agent": "agent/1.0",
    });
  });

  it("drops hop-by-hop headers, those Connection names, Host, the length, x-forwarded-* and the dashboard's key", () => {
    const out = upstreamRequestHeaders([
      ["host", "dashboard:3000"],
      ["connection", "keep-alive, X-Hop"],
      ["x-hop", "1"],
      ["keep-alive", "timeout=5"],
      ["transfer-encoding", "chunked"],
      ["te", "trailers"],
      ["upgrade", "h2c"],
      ["proxy-authorization", "Basic x"],
      ["content-length", "12"],
      ["x-forwarded-for", "10.0.0.1"],
      ["x-forwarded-host", "dashboard"],
      ["x-forwarded-port", "3000"],
      ["x-forwarded-proto", "http"],
      ["x-middleware-subrequest", "1"],
      ["Recall-Inspector-Auth", "Bearer ri_secret"],
      ["accept", "application/json"],
    ]);
    expect(out).toEqual({ accept: "application/json", "accept-encoding": "identity" });
  });

  it("keeps other cookies but never the dashboard's session", () => {
    expect(upstreamRequestHeaders([["cookie", "recall_inspector_session=sealed; a=1; b=2"]])).toEqual({
      cookie: "a=1; b=2",
      "accept-encoding": "identity",
    });
    expect(upstreamRequestHeaders([["cookie", "recall_inspector_session=sealed"]])).toEqual({ "accept-encoding": "identity" });
    expect(withoutSessionCookie(" a=1 ;recall_inspector_session = x; b=2")).toBe("a=1; b=2");
  });
});

describe("downstreamResponseHeaders", () => {
  it("returns every answer header, duplicates kept, but the hop-by-hop ones", () => {
    expect(
      downstreamResponseHeaders([
        ["Content-Type", "application/json"],
        ["Set-Cookie", "a=1"],
        ["Set-Cookie", "b=2"],
        ["Connection", "close, X-Private"],
        ["X-Private", "1"],
        ["Transfer-Encoding", "chunked"],
        ["Retry-After", "5"],
      ]),
    ).toEqual([
      ["Content-Type", "application/json"],
      ["Set-Cookie", "a=1"],
      ["Set-Cookie", "b=2"],
      ["Retry-After", "5"],
    ]);
  });
});

describe("content codings", () => {
  it("lists the codings in the order applied, identity and blanks left out", () => {
    expect(contentCodings("gzip")).toEqual(["gzip"]);
    expect(contentCodings(" GZip , br")).toEqual(["gzip", "br"]);
    expect(contentCodings("identity")).toEqual([]);
    expect(contentCodings(", ,")).toEqual([]);
    expect(contentCodings(null)).toEqual([]);
  });

  it("describes a decoded answer: no Content-Encoding or Content-Length, a strong ETag made weak", () => {
    expect(
      decodedResponseHeaders([
        ["Content-Type", "application/json"],
        ["Content-Encoding", "gzip"],
        ["Content-Length", "312"],
        ["ETag", '"abc"'],
        ["Vary", "Accept-Encoding"],
      ]),
    ).toEqual([
      ["Content-Type", "application/json"],
      ["ETag", 'W/"abc"'],
      ["Vary", "Accept-Encoding"],
    ]);
    expect(decodedResponseHeaders([["etag", 'W/"weak"']])).toEqual([["etag", 'W/"weak"']]);
  });
});
