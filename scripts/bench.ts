/** `npm run bench -- <name>`: runs a benchmark and prints its figures. */
import { runScript, UsageError } from "./run-script";

const BENCHES: Record<string, () => Promise<{ run: (args: string[]) => Promise<void> }>> = {
  recall: () => import("./bench/recall"),
  logging: () => import("./bench/logging"),
  history: () => import("./bench/history"),
  insights: () => import("./bench/insights"),
  "what-if": () => import("./bench/what-if"),
  export: () => import("./bench/export"),
  scan: () => import("./bench/scan"),
  start: () => import("./bench/start"),
  keyword: () => import("./bench/keyword"),
  eval: () => import("./bench/eval"),
  embed: () => import("./bench/embed"),
  proxy: () => import("./bench/proxy"),
  "proxy-bomb": () => import("./bench/proxy-bomb"),
  otlp: () => import("./bench/otlp"),
  audit: () => import("./bench/audit"),
  stores: () => import("./bench/stores"),
};

runScript(async () => {
  const [name, ...args] = process.argv.slice(2);
  const load = name ? BENCHES[name] : undefined;
  if (!load) throw new UsageError(`usage: npm run bench -- <${Object.keys(BENCHES).join("|")}> [options]`);
  await (await load()).run(args);
});
