/**
 * `npm run apikey -- create --scope ingest|read|full [--name <name>]`, `list`, `revoke <id|prefix>`:
 * the API keys of the Settings page from a shell. Through the running app when there is one (the
 * embedded database belongs to it), signing in with this shell's AUTH_PASSWORD when sign-in is on;
 * else on the database directly. A created key is printed once and never stored.
 */
import { PrismaClient } from "@prisma/client";
import { runScript, UsageError } from "./run-script";
import { runningApp } from "./running-app";
import type { ApiKeyView } from "../lib/auth/schemas";
import { CreateApiKeyBodySchema } from "../lib/auth/schemas";
import { API_KEY_SCOPES } from "../lib/auth/scopes";
import { createApiKey, listApiKeys, revokeApiKey } from "../lib/auth/server/keys";
import { resolveDatabaseConfig } from "../lib/db/server/config";
import { openDatabase } from "../lib/db/server/connection";
import { migrate } from "../lib/db/server/migrator";

const USAGE = `usage: npm run apikey -- create --scope ${API_KEY_SCOPES.join("|")} [--name <name>]
       npm run apikey -- list
       npm run apikey -- revoke <id or key prefix>`;

interface KeyStore {
  create(name: string, scope: string): Promise<{ key: string; item: ApiKeyView }>;
  list(): Promise<ApiKeyView[]>;
  revoke(idOrPrefix: string): Promise<ApiKeyView>;
  close(): Promise<void>;
  where: string;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

runScript(async () => {
  const [command, ...args] = process.argv.slice(2);
  if (command !== "create" && command !== "list" && command !== "revoke") throw new UsageError(USAGE);
  let body: { name: string; scope: string } | null = null;
  if (command === "create") {
    const parsed = CreateApiKeyBodySchema.safeParse({
      name: option(args, "--name") ?? `cli ${new Date().toISOString().slice(0, 10)}`,
      scope: option(args, "--scope"),
    });
    if (!parsed.success)
      throw new UsageError(`${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}\n${USAGE}`);
    body = parsed.data;
  }
  if (command === "revoke" && !args[0]) throw new UsageError(USAGE);

  const app = await runningApp();
  const store = app ? await viaApp(app) : await direct();
  try {
    if (body) {
      const { key, item } = await store.create(body.name, body.scope);
      console.log(`created ${item.scope} key "${item.name}" (${item.id}) ${store.where}. Store it now; it is not shown again:`);
      console.log(key);
    } else if (command === "list") {
      const items = await store.list();
      if (!items.length) console.log(`no API keys ${store.where}.`);
      for (const k of items) {
        const state = k.revoked_at ? `revoked ${k.revoked_at}` : `last used ${k.last_used_at ?? "never"}`;
        console.log(`${k.id}  ${k.prefix}…  ${k.scope.padEnd(6)}  ${k.name}  (created ${k.created_at}, ${state})`);
      }
    } else {
      const item = await store.revoke(args[0]!);
      console.log(`revoked ${item.scope} key "${item.name}" (${item.prefix}…) ${store.where}.`);
    }
  } finally {
    await store.close();
  }
});

async function viaApp(url: string): Promise<KeyStore> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const session = (await (await fetch(`${url}/api/auth/session`)).json()) as { auth_enabled?: boolean };
  if (session.auth_enabled) {
    const password = process.env.AUTH_PASSWORD;
    if (!password)
      throw new UsageError(
        `the app at ${url} has sign-in on: set AUTH_PASSWORD in this shell too (keys are managed by signed-in people, not by keys).`,
      );
    const signIn = await fetch(`${url}/api/auth/signin`, { method: "POST", headers, body: JSON.stringify({ password }) });
    if (!signIn.ok) throw new UsageError(`the app at ${url} refused AUTH_PASSWORD from this shell (${signIn.status}).`);
    headers.cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${url}${path}`, { ...init, headers });
    const answer = (await response.json()) as T & { message?: string };
    if (!response.ok) throw new UsageError(`the app at ${url} refused: ${answer.message ?? response.status}`);
    return answer;
  };
  return {
    where: `through the running app at ${url}`,
    create: (name, scope) => call("/api/keys", { method: "POST", body: JSON.stringify({ name, scope }) }),
    list: async () => (await call<{ items: ApiKeyView[] }>("/api/keys")).items,
    revoke: async (idOrPrefix) => {
      let id = idOrPrefix;
      if (!/^[0-9a-f-]{36}$/i.test(idOrPrefix)) {
        const matches = (await call<{ items: ApiKeyView[] }>("/api/keys")).items.filter(
          (k) => !k.revoked_at && idOrPrefix.startsWith(k.prefix),
        );
        if (matches.length !== 1)
          throw new UsageError(
            matches.length
              ? `${matches.length} keys start with ${idOrPrefix}; revoke by id.`
              : `no active key starts with ${idOrPrefix}.`,
          );
        id = matches[0]!.id;
      }
      return (await call<{ revoked: ApiKeyView }>(`/api/keys/${id}`, { method: "DELETE" })).revoked;
    },
    close: async () => {},
  };
}

async function direct(): Promise<KeyStore> {
  const db = await openDatabase(resolveDatabaseConfig());
  await migrate(db);
  const prisma = new PrismaClient({ adapter: db.adapter });
  return {
    where: `in the ${db.kind} database`,
    create: (name, scope) => createApiKey(prisma, CreateApiKeyBodySchema.parse({ name, scope })),
    list: () => listApiKeys(prisma),
    revoke: async (idOrPrefix) => {
      const outcome = await revokeApiKey(prisma, idOrPrefix);
      if (!outcome.ok) {
        throw new UsageError(
          outcome.reason === "ambiguous"
            ? `${outcome.matches} keys start with ${idOrPrefix}; revoke by id.`
            : `no key ${idOrPrefix}.`,
        );
      }
      return outcome.item;
    },
    close: async () => {
      await prisma.$disconnect();
      await db.close();
    },
  };
}
