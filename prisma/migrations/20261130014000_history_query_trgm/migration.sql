-- "Text in the query" filters of the history use ILIKE '%…%', which no b-tree can serve: a rare
-- term would scan every logged recall. A trigram GIN index serves it. (Written by hand: the
-- index is not expressible in schema.prisma without a preview feature; schema diffs ignore it.)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX IF NOT EXISTS "recalls_query_trgm_idx" ON "recalls" USING gin ("query" gin_trgm_ops);
