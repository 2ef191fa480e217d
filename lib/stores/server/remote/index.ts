/**
 * Remote stores: configuration, the HTTP client for the reference memory service, and the
 * `MemoryStore` built on it.
 */
import { processSingleton } from "@/lib/server/process-singleton";
import { readRemoteStoreConfigs } from "./config";
import { RemoteStore } from "./remote-store";

export * from "./config";
export * from "./client";
export * from "./service-api";
export * from "./remote-store";

/**
 * The process's remote stores, read from the environment once (`REMOTE_STORES`,
 * `REMOTE_STORE_*`). Throws RemoteStoreConfigError on a bad configuration (and reads again on
 * the next call, so a fixed environment is picked up in development).
 */
export function getRemoteStores(): RemoteStore[] {
  return processSingleton("remote-stores", () => readRemoteStoreConfigs(process.env).map((config) => new RemoteStore(config)));
}
