/**
 * The bundled probe queries (data/calibration): unrelated to any store, run against a store to
 * learn what "nothing relevant" scores there (lib/profiles/README.md "Calibration without labels").
 */
import fs from "node:fs";
import path from "node:path";

const PROBE_FILES = ["probes-questions.txt", "probes-professional.txt", "probes-statements.txt", "probes-chitchat.txt"];

let cached: string[] | null = null;

export function probeQueries(
  dir: string = path.join(/* turbopackIgnore: true */ process.cwd(), "data", "calibration"),
): string[] {
  if (cached && dir === path.join(/* turbopackIgnore: true */ process.cwd(), "data", "calibration")) return cached;
  const out = PROBE_FILES.flatMap((file) =>
    fs
      .readFileSync(/* turbopackIgnore: true */ path.join(dir, file), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
  const unique = [...new Set(out)];
  if (dir === path.join(/* turbopackIgnore: true */ process.cwd(), "data", "calibration")) cached = unique;
  return unique;
}
