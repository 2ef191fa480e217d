/**
 * The command line shared by the loopback doubles (fake-llm.ts, fake-reranker.ts,
 * fake-memory-service.ts; docs/ARCHITECTURE.md "Tests"), which Playwright's `webServer` starts as
 * `node --import tsx tests/support/<double>.ts --port N [options]`: parse the options, start the
 * double, print its "listening on <url>" line once ready (what Playwright and the CLI tests wait
 * for), and stop it cleanly on SIGTERM/SIGINT.
 *
 * Only node built-ins, like the doubles themselves: they must not share the app's code.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** `--name value` or `--name=value`; undefined when absent. */
export function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** A bad command line: printed as one line, exit code 2. */
export class DoubleUsageError extends Error {}

/** `--port` (else `fallback`) as a port number; 0 asks for a free port. */
export function portArg(args: readonly string[], fallback = "0"): number {
  const raw = argValue(args, "--port") ?? fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new DoubleUsageError(`--port must be a port number, got "${raw}"`);
  return port;
}

export interface RunningDouble {
  close(): Promise<void>;
}

/** A double a test scripts: what it received, answers queued for the next requests, a reset. */
export interface ScriptedDouble<Request, Answer> extends RunningDouble {
  port: number;
  /** Every request received, oldest first. */
  requests: Request[];
  /** Queues answers for the next requests (one each, in order). */
  setNext(...answers: Answer[]): void;
  /** Forgets queued answers and recorded requests. */
  reset(): void;
}

/** Whether the module at `moduleUrl` is the script node was started with (not an import from a test). */
export function isEntryModule(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && path.resolve(entry) === fileURLToPath(moduleUrl);
}

/**
 * Starts a double from its command line and keeps it until SIGTERM/SIGINT (exit 0 once closed,
 * 1 when closing failed). `start` returns the running double and its address; `name` prefixes
 * the lines printed. Returns the double, so a test can drive it in-process.
 */
export async function startDoubleFromArgs<T extends RunningDouble>(
  name: string,
  args: readonly string[],
  start: (args: readonly string[]) => Promise<{ double: T; url: string }>,
): Promise<T> {
  const { double, url } = await start(args);
  console.log(`${name} listening on ${url}`);
  const stop = () => {
    double.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return double;
}

/**
 * `startDoubleFromArgs` over `process.argv` when `moduleUrl` is the entry script; does nothing when
 * the double is imported. A usage error exits 2, any other failure to start exits 1, each with one line.
 */
export function runDoubleAsScript<T extends RunningDouble>(
  moduleUrl: string,
  name: string,
  start: (args: readonly string[]) => Promise<{ double: T; url: string }>,
): void {
  if (!isEntryModule(moduleUrl)) return;
  startDoubleFromArgs(name, process.argv.slice(2), start).catch((error: unknown) => {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof DoubleUsageError ? 2 : 1);
  });
}
