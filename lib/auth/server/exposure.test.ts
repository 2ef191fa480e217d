import { describe, expect, it } from "vitest";
import { authConfig, authConfigProblem } from "./config";
import { decideStartup, hostnameFromArgv, isLoopbackAddress } from "./exposure";

describe("loopback addresses", () => {
  it("knows loopback from everything else", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ["0.0.0.0", "::", "10.0.0.5", "192.168.1.2", "::ffff:10.0.0.1", "example.com", "128.0.0.1"])
      expect(isLoopbackAddress(a), a).toBe(false);
  });
});

describe("startup rule", () => {
  it("loopback without a password starts, sign-in off, as before", () => {
    expect(decideStartup({ listening: ["127.0.0.1"], authEnabled: false, authDisabled: false })).toEqual({
      ok: true,
      warning: null,
      authEnabled: false,
    });
    expect(decideStartup({ listening: ["::1", "127.0.0.1"], authEnabled: false, authDisabled: false }).ok).toBe(true);
  });

  it("any other address without AUTH_PASSWORD refuses with one line that says what to set", () => {
    for (const listening of [["0.0.0.0"], ["::"], ["127.0.0.1", "10.0.0.5"], null]) {
      const verdict = decideStartup({ listening, authEnabled: false, authDisabled: false });
      expect(verdict.ok, String(listening)).toBe(false);
      if (verdict.ok) continue;
      expect(verdict.line).not.toContain("\n");
      expect(verdict.line).toContain("AUTH_PASSWORD");
      expect(verdict.line).toContain("AUTH_DISABLED=true");
    }
    const verdict = decideStartup({ listening: ["0.0.0.0"], authEnabled: false, authDisabled: false });
    expect(!verdict.ok && verdict.line).toMatch(/^Recall Inspector cannot start: it listens on 0\.0\.0\.0/);
  });

  it("with AUTH_PASSWORD it starts anywhere with sign-in on", () => {
    expect(decideStartup({ listening: ["0.0.0.0"], authEnabled: true, authDisabled: false })).toEqual({
      ok: true,
      warning: null,
      authEnabled: true,
    });
  });

  it("AUTH_DISABLED=true starts, with a warning every time", () => {
    const exposed = decideStartup({ listening: ["0.0.0.0"], authEnabled: false, authDisabled: true });
    expect(exposed.ok && exposed.warning).toMatch(/WARNING: sign-in is off \(AUTH_DISABLED=true\) while listening on 0\.0\.0\.0/);
    const loopback = decideStartup({ listening: ["127.0.0.1"], authEnabled: false, authDisabled: true });
    expect(loopback.ok && loopback.warning).toMatch(/WARNING/);
  });

  it("reads -H / --hostname like next does, the last one winning", () => {
    expect(hostnameFromArgv(["node", "next", "start", "-p", "3000", "-H", "127.0.0.1"])).toBe("127.0.0.1");
    expect(hostnameFromArgv(["node", "next", "start", "-H", "127.0.0.1", "--hostname=0.0.0.0"])).toBe("0.0.0.0");
    expect(hostnameFromArgv(["node", "next", "start"])).toBeNull();
  });
});

describe("auth settings", () => {
  it("AUTH_PASSWORD turns sign-in on with a stable derived secret; AUTH_SECRET replaces it", () => {
    const on = authConfig({ AUTH_PASSWORD: "correct horse battery" });
    expect(on.enabled).toBe(true);
    expect(on.sessionSecret).toHaveLength(64);
    expect(authConfig({ AUTH_PASSWORD: "correct horse battery" }).sessionSecret).toBe(on.sessionSecret);
    expect(authConfig({ AUTH_PASSWORD: "another long password" }).sessionSecret).not.toBe(on.sessionSecret);
    expect(authConfig({ AUTH_PASSWORD: "correct horse battery", AUTH_SECRET: "s".repeat(40) }).sessionSecret).toBe(
      "s".repeat(40),
    );
  });

  it("unset or AUTH_DISABLED=true means off", () => {
    expect(authConfig({}).enabled).toBe(false);
    expect(authConfig({ AUTH_PASSWORD: "" }).enabled).toBe(false);
    expect(authConfig({ AUTH_PASSWORD: "correct horse battery", AUTH_DISABLED: "true" })).toMatchObject({
      enabled: false,
      disabled: true,
    });
  });

  it("names settings that cannot work", () => {
    expect(authConfigProblem({ AUTH_PASSWORD: "short" })).toMatch(/AUTH_PASSWORD is too short/);
    expect(authConfigProblem({ AUTH_PASSWORD: "correct horse battery", AUTH_SECRET: "tiny" })).toMatch(
      /AUTH_SECRET is too short/,
    );
    expect(authConfigProblem({ AUTH_DISABLED: "yes" })).toMatch(/AUTH_DISABLED must be/);
    expect(authConfigProblem({ AUTH_PASSWORD: "correct horse battery" })).toBeNull();
    expect(authConfigProblem({})).toBeNull();
  });
});
