/** Starting points from the demo corpus (data/demo/queries.json), offered for the store `demo` only: some on-topic, some not. */
export const EXAMPLE_QUERIES = [
  { query: "What went wrong with VAT on Belgian invoices?", kind: "on-topic" },
  { query: "who covers while Tomasz is on paternity leave", kind: "on-topic" },
  { query: "what time is the daily standup", kind: "on-topic" },
  { query: "How many moons does Jupiter have?", kind: "off-topic" },
  { query: "How do I configure sharding in MongoDB?", kind: "off-topic (near miss)" },
] as const;
