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
