/**
 * Prints the README's Configuration table from lib/env.ts (`npm run docs:env`); paste it over
 * the table in README.md. A unit test fails while the two differ.
 */
import { configurationTable } from "../lib/server/env";

console.log(configurationTable());
