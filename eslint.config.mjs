// ESLint: Next's rules (core web vitals), TypeScript's, and the import boundaries of
// docs/ARCHITECTURE.md "Layers", so CI fails when a layer imports one it must not.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import fs from "node:fs";
import path from "node:path";

/**
 * Server-only code lives in a `server/` folder of its domain (docs/ARCHITECTURE.md "Domain
 * shape"): one pattern instead of a list of modules. Types are erased, so type imports pass.
 */
const SERVER_ONLY_EXACT = ["server-only", "@prisma/client"];
const SERVER_ONLY_REGEX = String.raw`^(@/|\.\.?/)(.*/)?server(/|$)|^node:`;

/** Feature folders are the components/ folders that are not shared: read from the tree, not listed. */
const SHARED_FOLDERS = ["ui", "layout", "recall", "filters", "auth"];
const FEATURE_FOLDERS = fs
  .readdirSync(path.join(import.meta.dirname, "components"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SHARED_FOLDERS.includes(entry.name))
  .map((entry) => entry.name);
const SHARED_COMPONENTS = SHARED_FOLDERS.map((folder) => `components/${folder}/**`);

const CLIENT_PATTERN = {
  regex: SERVER_ONLY_REGEX,
  allowTypeImports: true,
  message: 'A client file never imports a server-only module (docs/ARCHITECTURE.md "Layers").',
};
const CLIENT_PATHS = SERVER_ONLY_EXACT.map((name) => ({ name, allowTypeImports: true, message: CLIENT_PATTERN.message }));
const SHARED_PATTERN = {
  group: FEATURE_FOLDERS.flatMap((f) => [`@/components/${f}/*`, `../${f}/*`]),
  message: 'Shared components never import a feature folder (docs/ARCHITECTURE.md "Layers").',
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    ".data/**",
    "node_modules/**",
    "playwright-report/**",
    "test-results/**",
    "next-env.d.ts",
  ]),
  {
    rules: {
      // `_name` marks a value kept on purpose (a destructured key left out, an unused parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or hands on loses its error silently.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // One import order everywhere, fixed by `eslint --fix`: packages, then the app's own
    // modules, then relative ones, each alphabetical.
    rules: {
      "import/order": [
        "error",
        {
          groups: [["builtin", "external"], "internal", ["parent", "sibling", "index"]],
          pathGroups: [{ pattern: "@/**", group: "internal" }],
          pathGroupsExcludedImportTypes: ["builtin"],
          "newlines-between": "ignore",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
    },
  },
  {
    // Playwright's fixtures call `use(value)`, which is not React's hook.
    files: ["e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // The pure domain imports only zod and the pure helpers below it.
    files: ["lib/recall/**/*.ts"],
    ignores: ["lib/recall/**/*.test.ts", "lib/recall/test-support/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!zod$|\\./|\\.\\./errors/|@/lib/recall/|@/lib/errors/|@/lib/validation/).*",
              message:
                'lib/recall is the pure domain: it imports only zod, lib/errors and lib/validation (docs/ARCHITECTURE.md "Layers").',
            },
          ],
        },
      ],
    },
  },
  {
    // Stores sit below the recall log.
    files: ["lib/stores/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/lib/recall-log(/.*)?|(\\.\\./)+recall-log(/.*)?)$",
              message: 'Stores never import the recall log (docs/ARCHITECTURE.md "Layers").',
            },
          ],
        },
      ],
    },
  },
  {
    // The search engine knows nothing of the database or of the stores built on it: it imports
    // npm packages, Node, itself and lib/recall's pure helpers (lib/stores/server/search-index/README.md).
    files: ["lib/stores/server/search-index/**/*.ts", "lib/stores/server/search-index/**/*.mjs"],
    ignores: ["lib/stores/server/search-index/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex:
                "^(@prisma/.*|pg|pg/.*|server-only|@/(?!lib/recall/|lib/random$).*|\\.\\./(\\.\\./)*(embedded|remote|registry|types|memory-schemas|import-body)(/.*)?)$",
              message:
                'search-index/ is the engine: no Prisma, no database, nothing of the stores above it (docs/ARCHITECTURE.md "Layers").',
            },
          ],
        },
      ],
    },
  },
  {
    // A domain's top level is client-safe: it never reaches into a server/ folder
    // (docs/ARCHITECTURE.md "Domain shape").
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    ignores: ["lib/**/server/**", "lib/**/*.test.ts", "lib/recall/**", "lib/stores/server/search-index/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths: CLIENT_PATHS, patterns: [CLIENT_PATTERN] }] },
  },
  {
    // Client files never import server-only modules.
    files: ["components/**/*.ts", "components/**/*.tsx", "lib/queries/**", "lib/hooks/**", "app/**/*.tsx"],
    ignores: ["**/*.test.ts", "app/api/**", "app/**/page.tsx", "app/**/layout.tsx", "app/not-found.tsx", ...SHARED_COMPONENTS],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths: CLIENT_PATHS, patterns: [CLIENT_PATTERN] }] },
  },
  {
    // Shared components: client files too, and they never import a feature folder.
    files: SHARED_COMPONENTS,
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { paths: CLIENT_PATHS, patterns: [CLIENT_PATTERN, SHARED_PATTERN] }],
    },
  },
]);
