import net from "node:net";
import { MIN_PASSWORD_LENGTH } from "./config";

/**
 * Where the server listens decides whether sign-in is required (lib/auth/README.md
 * "Security"). The listening socket is the truth, whatever started it: `next start -H`,
 * `next dev -H`, a standalone server's HOSTNAME, e2e/support/serve.ts. Next listens before it
 * runs instrumentation, so at startup the process's own servers can be asked for their address.
 */

export function isLoopbackAddress(address: string): boolean {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (a === "localhost" || a === "::1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return net.isIPv4(v4) && v4.startsWith("127.");
}

export type StartupVerdict = { ok: true; warning: string | null; authEnabled: boolean } | { ok: false; line: string };

/**
 * The startup rule: on loopback sign-in is optional; anywhere else (or where the address cannot
 * be told) the app refuses to start without AUTH_PASSWORD, unless AUTH_DISABLED=true says that
 * something in front of it checks who comes in, which is warned about on every start.
 */
export function decideStartup(input: {
  /** Addresses the process listens on; null when they could not be found (taken as exposed). */
  listening: string[] | null;
  authEnabled: boolean;
  authDisabled: boolean;
}): StartupVerdict {
  const exposed = input.listening === null ? ["an unknown address"] : input.listening.filter((a) => !isLoopbackAddress(a));
  const where = exposed.join(", ");
  if (input.authDisabled) {
    const warning = exposed.length
      ? `Recall Inspector: WARNING: sign-in is off (AUTH_DISABLED=true) while listening on ${where}: anyone who can reach this port can read, change and delete everything.`
      : "Recall Inspector: WARNING: sign-in is off (AUTH_DISABLED=true); it listens on loopback only, so only this machine can reach it.";
    return { ok: true, warning, authEnabled: false };
  }
  if (input.authEnabled || exposed.length === 0) return { ok: true, warning: null, authEnabled: input.authEnabled };
  return {
    ok: false,
    line: `Recall Inspector cannot start: it listens on ${where}, reachable from other machines, and sign-in is off. Set AUTH_PASSWORD (${MIN_PASSWORD_LENGTH}+ characters) to require sign-in, or AUTH_DISABLED=true if a proxy in front already checks who comes in, or listen on loopback (-H 127.0.0.1).`,
  };
}

/** `-H 0.0.0.0`, `--hostname=0.0.0.0` as next start/dev parse them (the last one wins). */
export function hostnameFromArgv(argv: string[]): string | null {
  let found: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if ((arg === "-H" || arg === "--hostname") && argv[i + 1] !== undefined) found = argv[++i]!;
    else if (arg.startsWith("--hostname=")) found = arg.slice("--hostname=".length);
  }
  return found;
}

/** The addresses this process listens on, or null when no server could be found. */
export function listeningAddresses(): string[] | null {
  // `_getActiveHandles` is undocumented but stable since Node 0.x; without it, fall back to argv.
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const addresses = handles
    .filter((h): h is net.Server => h instanceof net.Server && h.listening)
    .map((server) => server.address())
    .flatMap((address) => (address && typeof address === "object" ? [address.address] : []));
  if (addresses.length) return [...new Set(addresses)];
  const fromArgv = hostnameFromArgv(process.argv);
  return fromArgv ? [fromArgv] : null;
}
