import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The map (docs/ARCHITECTURE.md) stays a map: short, every path it names opens a file, every lib/
 * domain has the README the map points to, and every comment that cites a document's section by
 * name (`docs/ARCHITECTURE.md "Layers"`, `lib/calibration/README.md "Threshold profiles"`) names a
 * heading that exists, so a section renamed or moved breaks here rather than in a reader's hands.
 */

const ROOT = path.join(import.meta.dirname, "..");
const MAP = path.join(ROOT, "docs", "ARCHITECTURE.md");
const MAX_LINES = 200;
const MAX_LINE_LENGTH = 160;

/** Folders never walked: dependencies, builds, data and reports. */
const SKIPPED_DIRS = new Set([".git", "node_modules", ".data", "playwright-report", "test-results", "coverage"]);
const CODE_FILE = /\.(ts|tsx|mts|mjs|sql|prisma)$/;

function walk(dir: string, keep: (file: string) => boolean, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name) || entry.name.startsWith(".next")) continue;
      walk(path.join(dir, entry.name), keep, found);
    } else if (keep(entry.name)) {
      found.push(path.join(dir, entry.name));
    }
  }
  return found;
}

function mapText(): string {
  return readFileSync(MAP, "utf8");
}

/**
 * A Markdown file's headings, without their `#`s, skipping fenced code. A citation may leave out
 * a heading's code marks and its closing gloss: "The hybrid merge" names
 * "The hybrid merge (what the embedded store does)", "Recall: POST /x" names "Recall: `POST /x`".
 */
function headings(file: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (!match) continue;
    const plain = match[1]!.replaceAll("`", "");
    found
      .add(match[1]!)
      .add(plain)
      .add(plain.replace(/\s+\([^)]*\)$/, ""));
  }
  return found;
}

/** The document a citation names: from the repository root, else beside the map (`reference-rules.md`). */
function citedFile(name: string): string | undefined {
  for (const candidate of [path.join(ROOT, name), path.join(ROOT, "docs", name)]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

type Citation = { file: string; doc: string; section: string };

/**
 * Every `<doc>.md "Section"` in a file, also written `<doc>.md, "Section"` and across a comment's
 * line break (the next line's `*`, `//` or `--` is read as a space).
 */
function citations(file: string): Citation[] {
  const text = readFileSync(file, "utf8").replace(/\s*\n\s*(?:\*(?!\/)|\/\/\/?|--)?\s*/g, " ");
  const found: Citation[] = [];
  for (const match of text.matchAll(/([\w./-]+\.md),? "([^"]+)"/g)) {
    found.push({ file: path.relative(ROOT, file), doc: match[1]!, section: match[2]!.replace(/^#+\s*/, "") });
  }
  return found;
}

const FROZEN = /^prisma\/migrations\/[^/]+\/migration\.sql$/;

/** The map's "Moved sections" (`"Old" → <the README> "New"`): old section names that frozen files still cite. */
function movedSections(): Set<string> {
  const text = mapText();
  const start = text.indexOf("\n## Moved sections\n");
  const section = start < 0 ? "" : text.slice(start, text.indexOf("\n## ", start + 1));
  return new Set([...section.matchAll(/"([^"]+)" → [\w./-]+\.md "[^"]+"/g)].map((match) => match[1]!));
}

/** Backticked repository paths in the map: `lib/…`, `app/…`, `components/…` and the other top folders. */
function mapPaths(): string[] {
  const paths = new Set<string>();
  for (const match of mapText().matchAll(/`([^`\s]+)`/g)) {
    const token = match[1]!;
    if (!/^(lib|app|components|tests|e2e|scripts|prisma|docs|data)\//.test(token)) continue;
    if (/[<>*{}…]/.test(token)) continue; // a pattern (`lib/<domain>/`, `*_insights_source`), not a path
    paths.add(token.replace(/\/$/, ""));
  }
  return [...paths].sort();
}

describe("docs/ARCHITECTURE.md, the map", () => {
  it(`has at most ${MAX_LINES} lines, none over ${MAX_LINE_LENGTH} characters`, () => {
    const lines = mapText().replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
    const long = lines.map((line, i) => ({ line: i + 1, length: line.length })).filter((l) => l.length > MAX_LINE_LENGTH);
    expect(long, "lines over the limit").toEqual([]);
  });

  it("names only paths that exist", () => {
    const paths = mapPaths();
    expect(paths.length).toBeGreaterThan(30);
    expect(
      paths.filter((p) => !existsSync(path.join(ROOT, p))),
      "paths in the map that do not exist",
    ).toEqual([]);
  });

  it("lists every lib/ folder and every top-level app/ and components/ folder", () => {
    const text = mapText();
    const folders = ["lib", "app", "components"].flatMap((top) =>
      readdirSync(path.join(ROOT, top), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${top}/${entry.name}/`),
    );
    expect(
      folders.filter((folder) => !text.includes(`\`${folder}`)),
      "folders the map does not name",
    ).toEqual([]);
  });
});

describe("the domain READMEs", () => {
  it("every lib/ domain folder has its README.md", () => {
    const domains = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(domains.length).toBeGreaterThan(10);
    const missing = domains.map((d) => `lib/${d.name}/README.md`).filter((file) => !existsSync(path.join(ROOT, file)));
    expect(missing, "domains without a README.md").toEqual([]);
  });

  it("each README says what its domain is in 20–40 lines before its Notes", () => {
    const domains = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const sizes = domains
      .map((d) => `lib/${d.name}/README.md`)
      .filter((file) => existsSync(path.join(ROOT, file)))
      .map((file) => ({
        file,
        lines: readFileSync(path.join(ROOT, file), "utf8").split("\n## Notes")[0]!.trimEnd().split("\n").length,
      }));
    expect(sizes.filter(({ lines }) => lines < 20 || lines > 40)).toEqual([]);
  });
});

describe("section citations", () => {
  const files = [
    ...walk(ROOT, (name) => CODE_FILE.test(name)),
    path.join(ROOT, "README.md"),
    MAP,
    ...walk(path.join(ROOT, "lib"), (name) => name === "README.md"),
  ];
  const all = files.flatMap(citations);

  it("are found in the code", () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it('each `<file>.md "Section"` names an existing heading of that file', () => {
    // An applied migration is frozen (the migrator refuses an edited one): it may cite a section
    // the map lists under "Moved sections", whose targets are checked like any citation.
    const moved = movedSections();
    expect(moved.size).toBeGreaterThan(0);
    const cache = new Map<string, Set<string> | undefined>();
    const broken = all.filter(({ file, doc, section }) => {
      if (!cache.has(doc)) {
        const file = citedFile(doc);
        cache.set(doc, file ? headings(file) : undefined);
      }
      if (cache.get(doc)?.has(section)) return false;
      return !(FROZEN.test(file) && doc === "docs/ARCHITECTURE.md" && moved.has(section));
    });
    expect(
      broken.map(({ file, doc, section }) => `${file}: ${doc} "${section}"`),
      "citations of a section that does not exist",
    ).toEqual([]);
  });
});
