/**
 * Runs once when the server starts: open the database and apply pending migrations before the
 * first request, so a bad DATABASE_URL or a locked PGlite directory stops the server with one
 * clear line instead of failing request by request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startDatabase } = await import("./lib/db/startup");
  await startDatabase();
}
