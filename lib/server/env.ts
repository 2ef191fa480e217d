/**
 * Every environment variable the app, its scripts and its tests read, in one table, checked once
 * at boot (`checkEnv`, called by lib/startup.ts and the scripts): a value that cannot be right, or
 * a name one or two letters away from a known one, stops the start with one line naming the
 * variable. The README's Configuration table is generated from this table
 * (`npm run docs:env`), and a test keeps the two equal.
 *
 * A new variable goes here first (lib/server/README.md "Configuration"): add a row, with a check
 * when a wrong value would otherwise only surface at the first request. Area parsers (database,
 * embedder, remote stores, LLM selector) keep reading their own variables from an env record, so
 * they stay pure and testable; `checkEnv` runs them too, so their errors also surface at boot.
 *
 * Server-only in spirit (it reads process.env) but free of `server-only` so scripts can use it.
 */
import { authConfigProblem } from "../auth/server/config";
import { resolveDatabaseConfig } from "../db/server/config";
import { readEmbeddingsConfig } from "../embeddings/server/config";
import { httpUrlProblem, wholeNumberIn, type Env } from "../env-values";
import { readRerankConfig } from "../rerank/config";
import { readLlmSelectorConfig } from "../selectors/llm";
import { readRemoteStoreConfigs, REMOTE_STORE_SINGLE_VARS } from "../stores/server/remote/config";

export type { Env };

/** A check of one set, non-blank value: the problem in words, or undefined when it is fine. */
type Check = (value: string) => string | undefined;

export interface EnvSetting {
  /** The variables of this row (a group shares one meaning and one default). */
  names: readonly string[];
  default: string;
  meaning: string;
  /** Who reads it: the app (checked at boot), the scripts, or the test runners. */
  scope: "app" | "scripts" | "tests";
  checks?: Readonly<Record<string, Check>>;
}

const positiveInt =
  (max = Number.MAX_SAFE_INTEGER): Check =>
  (value) =>
    wholeNumberIn(value, 1, max) !== undefined ? undefined : `must be a whole number in 1…${max}, got "${value}"`;

const nonNegativeInt =
  (max: number): Check =>
  (value) =>
    wholeNumberIn(value, 0, max) !== undefined ? undefined : `must be a whole number in 0…${max}, got "${value}"`;

const oneOf =
  (...allowed: string[]): Check =>
  (value) =>
    allowed.includes(value) ? undefined : `must be ${allowed.map((a) => `"${a}"`).join(" or ")}, got "${value}"`;

const httpUrl: Check = (value) => httpUrlProblem(value);

export const ENV_SETTINGS: readonly EnvSetting[] = [
  {
    names: ["DATABASE_URL"],
    default: "unset",
    meaning:
      "`postgres://user:pass@host:5432/db` uses that PostgreSQL database (migrated at startup). Unset: the embedded PGlite database.",
    scope: "app",
  },
  {
    names: ["PGLITE_DATA_DIR"],
    default: "`.data/pglite`",
    meaning: "Where the embedded database lives. Created on first start; git-ignored. One process at a time may open it.",
    scope: "app",
  },
  {
    names: ["INDEX_SNAPSHOT"],
    default: "beside PGlite's data directory (`<dir>.index-snapshot`); none for PostgreSQL",
    meaning:
      "File where each embedded store keeps its index between starts, read back when it still matches the store's memories (else rebuilt); the store `embedded` uses this path, any other store the path plus `.<name>`; `off` always rebuilds.",
    scope: "app",
  },
  {
    names: ["STORE_IDLE_MINUTES"],
    default: "`30`",
    meaning:
      "An embedded store not used for this many minutes is dropped from memory (its index opens again, from its snapshot, on its next use); `0` keeps every opened store.",
    scope: "app",
    checks: { STORE_IDLE_MINUTES: nonNegativeInt(10_080) },
  },
  {
    names: ["PORT"],
    default: "`3000`",
    meaning: "Port of `npm run dev` / `npm start` (or `npm run dev -- -p 4000`).",
    scope: "app",
    checks: { PORT: positiveInt(65_535) },
  },
  {
    names: ["DEMO_CORPUS"],
    default: "on",
    meaning:
      "On a new database the first start creates the store `demo` with the demo corpus and its labeled set; `off` creates an empty store `embedded` instead.",
    scope: "app",
    checks: { DEMO_CORPUS: oneOf("on", "off") },
  },
  {
    names: ["STORE_CALIBRATION"],
    default: "auto",
    meaning:
      '`auto`: an embedded store with no calibration without labels, or whose size moved by more than 5 %, starts one in the background when the stores are listed (lib/profiles/README.md "Calibration without labels"); `manual`: only `POST /api/profiles/calibrations` (the Profiles page\'s button) starts one.',
    scope: "app",
    checks: { STORE_CALIBRATION: oneOf("auto", "manual") },
  },
  {
    names: ["EMBEDDINGS_BASE_URL", "EMBEDDINGS_MODEL", "EMBEDDINGS_DIMENSIONS", "EMBEDDINGS_API_KEY", "EMBEDDINGS_TIMEOUT_MS"],
    default: "unset (timeout `30000`)",
    meaning:
      "Embed with an OpenAI-compatible `/v1/embeddings` endpoint instead of the bundled Universal Sentence Encoder lite: `EMBEDDINGS_BASE_URL` (e.g. `https://api.openai.com/v1`; `/embeddings` is appended), `EMBEDDINGS_MODEL` and `EMBEDDINGS_DIMENSIONS` (its vector size) are the minimum; the key and the timeout are optional. After switching, run `npm run reembed`.",
    scope: "app",
    checks: {
      EMBEDDINGS_BASE_URL: httpUrl,
      EMBEDDINGS_DIMENSIONS: positiveInt(65_536),
      EMBEDDINGS_TIMEOUT_MS: positiveInt(600_000),
    },
  },
  {
    names: ["EMBEDDING_WORKERS"],
    default: "2 (≤ cores)",
    meaning: "Worker threads running USE-lite, so large imports never block requests.",
    scope: "app",
    checks: { EMBEDDING_WORKERS: positiveInt(64) },
  },
  {
    names: ["EMBEDDING_QUERY_WORKER"],
    default: "on",
    meaning:
      "One more USE-lite worker that embeds only queries, so a recall never waits behind an import chunk; `0` turns it off (saves one model's memory).",
    scope: "app",
    checks: { EMBEDDING_QUERY_WORKER: oneOf("0", "1") },
  },
  {
    names: ["REMOTE_STORES", ...REMOTE_STORE_SINGLE_VARS],
    default: "unset",
    meaning:
      'Remote memory services (the reference REST API) the console can recall from: `REMOTE_STORES` is a JSON array of `{"name","label","base_url","api_key","context_id","timeout_ms"}`; for one store, `REMOTE_STORE_URL`, `REMOTE_STORE_API_KEY`, `REMOTE_STORE_CONTEXT_ID` (and optionally `REMOTE_STORE_NAME`, `REMOTE_STORE_LABEL`, `REMOTE_STORE_TIMEOUT_MS`) do the same. Checked at startup; the key never reaches the browser, a log line or the history.',
    scope: "app",
  },
  {
    names: ["SELECTOR_LLM_BASE_URL", "SELECTOR_LLM_MODEL", "SELECTOR_LLM_API_KEY", "SELECTOR_LLM_TIMEOUT_MS"],
    default: "unset",
    meaning:
      "The LLM selector: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server). Without it the console offers the offline score-gap selector.",
    scope: "app",
  },
  {
    names: ["RERANK_BASE_URL", "RERANK_MODEL", "RERANK_PROTOCOL", "RERANK_API_KEY", "RERANK_TIMEOUT_MS", "RERANK_BATCH_SIZE"],
    default: "unset (protocol `cohere`, timeout `10000`, batch `32`)",
    meaning:
      "A reranker for the embedded store. `RERANK_PROTOCOL=cohere` (Cohere, Jina, vLLM, the memory service's `/v1/rerank`) posts `{model, query, documents, top_n}` and needs `RERANK_MODEL`; `tei` (text-embeddings-inference) posts `{query, texts, truncate}` and needs no model. Posted to `RERANK_BASE_URL` as is when its path ends in `/rerank`, else to `{RERANK_BASE_URL}/rerank` (e.g. `https://api.cohere.com/v2`, `https://api.jina.ai/v1`, `http://tei:8080`). At most `RERANK_BATCH_SIZE` documents a request (text-embeddings-inference's default limit is 32), the batches sent together. Without it `use_rerank: true` is refused on the embedded store. The key never reaches the browser, a log line or the history.",
    scope: "app",
    checks: {
      RERANK_BASE_URL: httpUrl,
      RERANK_PROTOCOL: oneOf("cohere", "tei"),
      RERANK_TIMEOUT_MS: positiveInt(600_000),
      RERANK_BATCH_SIZE: positiveInt(1000),
    },
  },
  {
    names: ["AUTH_PASSWORD"],
    default: "unset",
    meaning:
      "The team's password (12+ characters): turns on the sign-in page and API keys (`Authorization: Bearer <key>`). Required when the app listens on anything but loopback (see Running it for a team).",
    scope: "app",
  },
  {
    names: ["AUTH_SECRET"],
    default: "derived from `AUTH_PASSWORD`",
    meaning:
      "32+ random characters that seal the session cookie. Unset, a key derived from the password is used (changing the password signs everyone out).",
    scope: "app",
  },
  {
    names: ["AUTH_DISABLED"],
    default: "`false`",
    meaning:
      "`true`: no sign-in even when listening beyond loopback (something in front must check who comes in); warned about on every start.",
    scope: "app",
    checks: { AUTH_DISABLED: oneOf("true", "false") },
  },
  {
    names: ["ALLOWED_HOSTS"],
    default: "loopback and this machine's names",
    meaning:
      "Comma-separated `Host` names the app answers for besides loopback, the machine's hostname and its addresses (`recall.example.com`, `.example.com` for subdomains, `*` to leave the check to a proxy). Any other Host gets 403 (DNS rebinding).",
    scope: "app",
  },
  {
    names: ["TRUSTED_PROXY_HOPS"],
    default: "`0`",
    meaning:
      "How many reverse proxies in front of the app append the address they saw to `X-Forwarded-For`. `0`: that header is ignored (any client can write it) and the sign-in limiter counts by the connection's address; `1` behind one nginx/Caddy: the header's last entry is the client.",
    scope: "app",
    checks: {
      TRUSTED_PROXY_HOPS: (value) =>
        wholeNumberIn(value, 0, 10) !== undefined ? undefined : `must be a whole number in 0…10, got "${value}"`,
    },
  },
  {
    names: ["NEXT_DIST_DIR"],
    default: "`.next`",
    meaning: "Where `next build` writes, so a second build can live beside `.next`.",
    scope: "app",
  },
  {
    names: ["RECALL_INSPECTOR_URL"],
    default: "`http://127.0.0.1:$PORT`",
    meaning: "The running app the scripts (`reembed`, `retention`) go through when it answers.",
    scope: "scripts",
    checks: { RECALL_INSPECTOR_URL: httpUrl },
  },
  {
    names: ["RECALL_INSPECTOR_API_KEY"],
    default: "unset",
    meaning: "With sign-in on, the API key the scripts send to the running app (`full` for `retention`, `reembed`, `mirror`).",
    scope: "scripts",
  },
  {
    names: ["RETENTION_DAYS"],
    default: "unset",
    meaning: "`npm run retention` without `--keep-days`: delete logged recalls older than this many days.",
    scope: "scripts",
    checks: { RETENTION_DAYS: positiveInt() },
  },
  {
    names: ["CHROMIUM_PATH"],
    default: "`/usr/bin/chromium`",
    meaning: "Browser for the e2e tests; set it empty to use Playwright's bundled browser on a laptop.",
    scope: "tests",
  },
  {
    names: ["E2E_PORT"],
    default: "`3210`",
    meaning:
      "First of the loopback ports the e2e servers use: the app, +1 on PostgreSQL, +2/+3 test doubles, +4 with sign-in on, +5 another origin.",
    scope: "tests",
  },
  {
    names: ["TEST_DATABASE_URL"],
    default: "unset",
    meaning:
      "Run the PostgreSQL tests against a server you already run (it must allow `CREATE DATABASE`) instead of a throw-away one.",
    scope: "tests",
  },
];

export const ENV_NAMES: ReadonlySet<string> = new Set(ENV_SETTINGS.flatMap((s) => s.names));

/** A setting that cannot be right; its message is one line that names the variable. */
export class EnvError extends Error {
  override readonly name = "EnvError";
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
  }
}

/**
 * Checks the environment: each set variable's value, then each area parser (database, embedder,
 * remote stores, LLM selector), then names that look like a typo of a known one.
 *
 * @throws EnvError naming the first problem (and how many more there are)
 */
export function checkEnv(env: Env = process.env): void {
  const problems: { variable: string; message: string }[] = [];
  for (const setting of ENV_SETTINGS) {
    for (const [name, check] of Object.entries(setting.checks ?? {})) {
      const value = env[name]?.trim();
      if (!value) continue;
      const problem = check(value);
      if (problem) problems.push({ variable: name, message: `${name} ${problem}.` });
    }
  }
  const parsers: [string, () => unknown][] = [
    ["DATABASE_URL", () => resolveDatabaseConfig(env)],
    ["EMBEDDINGS_BASE_URL", () => readEmbeddingsConfig(env)],
    ["REMOTE_STORES", () => readRemoteStoreConfigs(env)],
    ["SELECTOR_LLM_BASE_URL", () => readLlmSelectorConfig(env)],
    ["RERANK_BASE_URL", () => readRerankConfig(env)],
    [
      "AUTH_PASSWORD",
      () => {
        const problem = authConfigProblem(env);
        if (problem) throw new Error(problem);
      },
    ],
  ];
  for (const [variable, parse] of parsers) {
    try {
      parse();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!problems.some((p) => p.message === message)) problems.push({ variable: variableOf(error) ?? variable, message });
    }
  }
  for (const name of Object.keys(env)) {
    if (ENV_NAMES.has(name)) continue;
    const near = nearestKnown(name);
    if (near) problems.push({ variable: name, message: `${name} is not a setting of this app; did you mean ${near}?` });
  }
  const first = problems[0];
  if (first) {
    throw new EnvError(
      first.message + (problems.length > 1 ? ` (and ${problems.length - 1} more setting problems)` : ""),
      first.variable,
    );
  }
}

function variableOf(error: unknown): string | undefined {
  const variable = (error as { variable?: unknown } | null)?.variable;
  return typeof variable === "string" ? variable : undefined;
}

/**
 * A known name one or two edits away (a typo like EMBEDDING_BASE_URL for EMBEDDINGS_BASE_URL),
 * only for names that look like ours (upper case with an underscore, sharing the first word).
 */
export function nearestKnown(name: string): string | undefined {
  if (!/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name)) return undefined;
  const head = name.split("_")[0]!;
  let best: { name: string; distance: number } | undefined;
  for (const known of ENV_NAMES) {
    const knownHead = known.split("_")[0]!;
    if (editDistance(head, knownHead) > 1) continue;
    const distance = editDistance(name, known);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name: known, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** `STORE_IDLE_MINUTES` in milliseconds (default 30 min; 0: never drop). */
export function storeIdleMs(env: Env = process.env): number {
  const minutes = env.STORE_IDLE_MINUTES?.trim();
  return (minutes ? Number(minutes) : 30) * 60_000;
}

/** `STORE_CALIBRATION`: stores calibrate themselves without labels unless it is `manual`. */
export function autoCalibrationEnabled(env: Env = process.env): boolean {
  return env.STORE_CALIBRATION?.trim() !== "manual";
}

/** `DEMO_CORPUS`: load the demo corpus on a first start unless it is `off`. */
export function demoCorpusEnabled(env: Env = process.env): boolean {
  return env.DEMO_CORPUS?.trim() !== "off";
}

/** The README's Configuration table (app and test settings), generated from `ENV_SETTINGS`. */
export function configurationTable(): string {
  const rows = ENV_SETTINGS.map((s) => `| ${s.names.map((n) => `\`${n}\``).join(", ")} | ${s.default} | ${s.meaning} |`);
  return ["| Variable | Default | Meaning |", "|---|---|---|", ...rows].join("\n");
}
