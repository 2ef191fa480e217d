import { readRemoteStoreConfigs, type RemoteStoreConfig } from "@/lib/stores/server/remote/config";
import type { FakeMemoryService } from "../../support/fake-memory-service";

/** A query no error message may repeat. */
export const SECRET_QUERY = "why did the SECRET-QUERY-7431 deploy fail";

/** The remote store config pointing at a fake, read through the real environment parser. */
export function configFor(
  fake: FakeMemoryService,
  overrides: { apiKey?: string; contextId?: string; timeoutMs?: number; url?: string; name?: string } = {},
): RemoteStoreConfig {
  const [config] = readRemoteStoreConfigs({
    REMOTE_STORE_URL: overrides.url ?? fake.url,
    REMOTE_STORE_API_KEY: overrides.apiKey ?? fake.apiKey,
    REMOTE_STORE_CONTEXT_ID: overrides.contextId ?? fake.contextId,
    REMOTE_STORE_NAME: overrides.name ?? "prod",
    REMOTE_STORE_LABEL: "Production",
    ...(overrides.timeoutMs !== undefined ? { REMOTE_STORE_TIMEOUT_MS: String(overrides.timeoutMs) } : {}),
  });
  if (!config) throw new Error("no config");
  return config;
}

/** Awaits a promise expected to reject and returns the rejection. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}
