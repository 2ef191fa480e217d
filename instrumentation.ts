/**
 * Runs once when the server starts (lib/startup.ts): a bad DATABASE_URL, a locked PGlite
 * directory or a broken REMOTE_STORES setting stops the server with one clear line instead of
 * failing request by request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startApp } = await import("./lib/server/startup");
  await startApp();
}
