import { DatabaseSetupError } from "./config";
import { getDatabase } from "./index";

/** Opens and migrates the database at server start; a setup problem ends the process with one line. */
export async function startDatabase(): Promise<void> {
  try {
    const db = await getDatabase();
    console.log(`Recall Inspector: ${db.kind} database ready (${db.location}).`);
  } catch (error) {
    if (error instanceof DatabaseSetupError) {
      console.error(`Recall Inspector cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
