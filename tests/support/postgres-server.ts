import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A throw-away PostgreSQL server on loopback for the test suite: initdb into a temp directory,
 * start on a free port, drop everything at the end. `TEST_DATABASE_URL` skips all of this and
 * uses a server you already run (it must allow CREATE DATABASE).
 */
export interface TestPostgres {
  /** URL of the maintenance database; tests create their own databases on this server. */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.TEST_DATABASE_URL?.trim();
  if (external) return { adminUrl: external, stop: async () => {} };

  const bin = findPostgresBin();
  const isRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root; the Debian package creates the `postgres` user.
  const asServerUser = (cmd: string, args: string[]) =>
    isRoot ? { cmd: "runuser", args: ["-u", "postgres", "--", cmd, ...args] } : { cmd, args };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recall-inspector-pg-"));
  const dataDir = path.join(dir, "data");
  if (isRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);

  const init = asServerUser(path.join(bin, "initdb"), [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  execFileSync(init.cmd, init.args, { stdio: "pipe" });

  const port = await freePort();
  const server = asServerUser(path.join(bin, "postgres"), [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "-k",
    dir,
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
  ]);
  const child = spawn(server.cmd, server.args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));

  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await waitForPort(port, child, () => stderr);
  return {
    adminUrl,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // pg_ctl signals the server itself; a signal to the runuser wrapper may not reach it.
        const ctl = asServerUser(path.join(bin, "pg_ctl"), ["stop", "-D", dataDir, "-m", "immediate", "-s"]);
        try {
          execFileSync(ctl.cmd, ctl.args, { stdio: "ignore" });
        } catch {
          child.kill("SIGKILL");
        }
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function findPostgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0]) return path.join(root, versions[0], "bin");
  try {
    return path.dirname(execFileSync("which", ["initdb"], { encoding: "utf8" }).trim());
  } catch {
    throw new Error(
      "PostgreSQL server binaries not found: install them (apt-get install postgresql) or set TEST_DATABASE_URL to a server the tests may create databases on.",
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ReturnType<typeof spawn>, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`test PostgreSQL exited early:\n${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) {
      // Accepting TCP is not accepting queries; give the startup a moment to finish.
      await new Promise((r) => setTimeout(r, 200));
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`test PostgreSQL did not start within 30 s:\n${stderr()}`);
}
