/**
 * The embedded database belongs to the app process, so scripts that write to it go through the
 * running app's HTTP API when there is one, and open the database themselves only when not.
 */
export function appUrl(): string {
  return process.env.RECALL_INSPECTOR_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

/** The app's base URL when it answers its health check, else null. */
export async function runningApp(url: string = appUrl()): Promise<string | null> {
  try {
    return (await fetch(`${url}/api/health`)).ok ? url : null;
  } catch {
    return null;
  }
}

/**
 * Headers for calls to the running app. With sign-in on (AUTH_PASSWORD), scripts present an API
 * key from RECALL_INSPECTOR_API_KEY (a `full` key for writes, `read` for reads).
 */
export function appHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const key = process.env.RECALL_INSPECTOR_API_KEY?.trim();
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}
