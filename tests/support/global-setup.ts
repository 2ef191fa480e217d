import type { TestProject } from "vitest/node";
import { startTestPostgres } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** Maintenance URL of the suite's PostgreSQL server (tests/support/databases.ts makes databases on it). */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startTestPostgres();
  project.provide("postgresAdminUrl", postgres.adminUrl);
  return () => postgres.stop();
}
