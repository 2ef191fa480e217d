import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

it("prisma/schema.prisma has no change that lacks a migration (npm run db:migration -- <name>)", async () => {
  // --exit-code: 0 when the datamodels match, 2 when they differ.
  const result = await promisify(execFile)(
    path.join(root, "node_modules", ".bin", "prisma"),
    [
      "migrate",
      "diff",
      "--from-schema-datamodel",
      "prisma/migrations/schema.snapshot.prisma",
      "--to-schema-datamodel",
      "prisma/schema.prisma",
      "--exit-code",
    ],
    { cwd: root },
  ).then(
    () => 0,
    (error: { code: number }) => error.code,
  );
  expect(result).toBe(0);
});
