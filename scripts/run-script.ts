import { DatabaseSetupError } from "../lib/db/server/config";
import { checkEnv, EnvError } from "../lib/server/env";

/**
 * Runs a command-line script: the settings are checked first (lib/env.ts), setup problems print
 * one line and exit 1, our bugs print a stack.
 */
export function runScript(main: () => Promise<void>): void {
  Promise.resolve()
    .then(() => checkEnv(process.env))
    .then(main)
    .then(
      () => process.exit(0),
      (error: unknown) => {
        if (error instanceof EnvError || error instanceof DatabaseSetupError || error instanceof UsageError) {
          console.error(`error: ${error.message}`);
        } else {
          console.error(error);
        }
        process.exit(1);
      },
    );
}

/** A mistake in how the script was called; printed as one line. */
export class UsageError extends Error {}
