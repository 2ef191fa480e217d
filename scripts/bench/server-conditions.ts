/**
 * Benchmarks of route handlers import server-only modules (`import "server-only"`), which only
 * load under Node's `react-server` condition, as in Next's server bundle. Such a benchmark runs
 * its body in a child process started with that condition.
 */
import { spawn } from "node:child_process";
import path from "node:path";

export async function runWithServerConditions(entry: string, args: readonly string[]): Promise<void> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.resolve(entry), ...args], {
    stdio: "inherit",
    env: process.env,
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`the benchmark exited with ${code}`);
}
