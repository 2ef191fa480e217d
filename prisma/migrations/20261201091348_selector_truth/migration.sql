-- AlterTable
ALTER TABLE "recalls" ADD COLUMN     "selector_prompt_version" TEXT,
ADD COLUMN     "top_dropped" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "top_memory_id" TEXT;

-- AlterTable
ALTER TABLE "recall_rollup" DROP CONSTRAINT "recall_rollup_pkey",
ADD COLUMN     "low_top_dropped" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "moderate_top_dropped" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "none_top_dropped" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "selector_failed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "selector_prompt_version" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "recall_rollup_pkey" PRIMARY KEY ("bucket", "store", "selector_applied", "selector_model", "selector_reason", "selector_prompt_version");

-- CreateIndex
CREATE INDEX "recalls_selector_reason_created_at_idx" ON "recalls"("selector_reason", "created_at" DESC);

-- =============================================================================================
-- Written by hand (issue 16, docs/ARCHITECTURE.md "Selector block"): one meaning of "applied".
-- A selector that ran is applied (kept/dropped, possibly 0 dropped); not applied only when it did
-- not run or failed, with a reason from one list (lib/selectors/reasons.ts). Rows logged under the
-- old rule are rewritten here, and the Insights rollups are rebuilt from scratch under the new
-- counters, so Insights is exact for old and new recalls alike.

-- The rollups are rebuilt below; while the rows are rewritten, the update trigger must not apply
-- the old counters to them (it would subtract and add through functions being replaced).
TRUNCATE "recall_rollup", "recall_memory_rollup";
ALTER TABLE "recalls" DISABLE TRIGGER "recalls_insights_update";

-- 1. The score gap found no clear gap: it ran and kept the whole page (applied, 0 dropped).
UPDATE "recalls" SET
  "selector_applied" = true,
  "selector_model" = 'score-gap',
  "selector_reason" = NULL,
  "selector_kept" = CASE WHEN jsonb_typeof("results") = 'array' THEN jsonb_array_length("results") ELSE 0 END,
  "selector_dropped" = 0,
  "dropped_memory_ids" = '{}',
  "selector" = jsonb_build_object(
    'applied', true, 'model', 'score-gap',
    'kept', CASE WHEN jsonb_typeof("results") = 'array' THEN jsonb_array_length("results") ELSE 0 END,
    'dropped', 0, 'dropped_memory_ids', '[]'::jsonb)
WHERE "selector_applied" = false AND "selector_reason" = 'no_clear_gap';

-- 2. One reason for every HTTP error; the status moves to the trace.
UPDATE "recalls" SET
  "selector_usage" = coalesce("selector_usage", '{}'::jsonb) || jsonb_build_object('http_status', substr("selector_reason", 6)::int),
  "selector_reason" = 'http_error',
  "selector" = jsonb_build_object('applied', false, 'reason', 'http_error')
WHERE "selector_applied" = false AND "selector_reason" ~ '^http_[0-9]{3}$';

-- 3. A selector that was asked but did not apply still names its strategy where it is known
--    (the failure rate is per model). The LLM's model name was not logged for those: it stays unknown.
UPDATE "recalls" SET "selector_model" = 'score-gap'
WHERE "selector_applied" = false AND "selector_model" IS NULL AND "source" = 'console'
  AND "request" ->> 'selector' = 'gap';

-- 4. The LLM prompt in use before versions were recorded.
UPDATE "recalls" SET "selector_prompt_version" = '1'
WHERE "source" = 'console' AND "request" ->> 'selector' = 'llm' AND "selector_model" IS NOT NULL;

-- 5. The memory that set top_score: the pool's highest raw cosine (lowest rank on ties; rank 1
--    of the pool when no candidate has a cosine), else rank 1 of the logged page (which holds the
--    dropped rows, marked, when the console ran the selector).
UPDATE "recalls" AS r SET "top_memory_id" = t.memory_id, "top_dropped" = t.dropped
FROM (
  SELECT DISTINCT ON (c."recall_id") c."recall_id", c."memory_id", c."dropped"
  FROM "recall_candidates" AS c
  ORDER BY c."recall_id", c."in_pool" DESC, c."raw_cosine" DESC NULLS LAST, c."rank"
) AS t
WHERE r."id" = t."recall_id" AND r."status" <> 'error';

UPDATE "recalls" SET
  "top_memory_id" = ("results" -> 0) ->> 'memory_id',
  "top_dropped" = coalesce(("results" -> 0) -> 'dropped' = 'true'::jsonb, false)
    OR coalesce((("results" -> 0) ->> 'memory_id') = ANY ("dropped_memory_ids"), false)
WHERE "top_memory_id" IS NULL AND "status" <> 'error'
  AND jsonb_typeof("results") = 'array' AND jsonb_array_length("results") > 0;

ALTER TABLE "recalls" ENABLE TRIGGER "recalls_insights_update";

-- ---------------------------------------------------------------------------------------------
-- The counters under the new rule. Mirrors SELECTOR_REASON_KINDS in lib/selectors/reasons.ts
-- (a unit test holds the two lists together).
CREATE OR REPLACE FUNCTION selector_reason_kind(reason text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN reason IS NULL OR reason = '' THEN 'unknown'
    WHEN reason = 'disabled' THEN 'off'
    WHEN reason IN ('not_configured', 'misconfigured') THEN 'unavailable'
    WHEN reason IN ('empty_page', 'invalid_page', 'no_cosines', 'too_few_results', 'aborted') THEN 'skipped'
    WHEN reason IN ('timeout', 'unreachable', 'http_error', 'bad_response', 'refused', 'truncated', 'unparseable', 'unknown_id')
      OR reason ~ '^http_[0-9]{3}$' THEN 'failed'
    ELSE 'unknown'
  END
$$;

DROP FUNCTION IF EXISTS recall_insight_counts(text, text, boolean, integer, integer, text[], jsonb);
CREATE FUNCTION recall_insight_counts(
  status text,
  level text,
  selector_applied boolean,
  selector_reason text,
  selector_kept integer,
  selector_dropped integer,
  dropped_memory_ids text[],
  top_dropped boolean
) RETURNS TABLE (
  failed integer,
  applied integer,
  counted integer,
  kept integer,
  dropped integer,
  listed_dropped integer,
  lost_any integer,
  level_high integer,
  level_moderate integer,
  level_low integer,
  level_none integer,
  selector_failed integer,
  high_top_dropped integer,
  moderate_top_dropped integer,
  low_top_dropped integer,
  none_top_dropped integer,
  weak_kept_all integer
) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT
    x.f::int,
    x.a::int,
    x.c::int,
    CASE WHEN x.c THEN selector_kept ELSE 0 END,
    CASE WHEN x.c THEN selector_dropped ELSE 0 END,
    CASE WHEN x.c THEN least(cardinality(dropped_memory_ids), selector_dropped) ELSE 0 END,
    (x.a AND (coalesce(selector_dropped, 0) > 0 OR cardinality(dropped_memory_ids) > 0))::int,
    (NOT x.f AND coalesce(level = 'high', false))::int,
    (NOT x.f AND coalesce(level = 'moderate', false))::int,
    (NOT x.f AND coalesce(level = 'low', false))::int,
    (NOT x.f AND coalesce(level = 'none', false))::int,
    (NOT x.f AND NOT selector_applied AND selector_reason_kind(selector_reason) = 'failed')::int,
    (x.t AND coalesce(level = 'high', false))::int,
    (x.t AND coalesce(level = 'moderate', false))::int,
    (x.t AND coalesce(level = 'low', false))::int,
    (x.t AND coalesce(level = 'none', false))::int,
    (x.a AND coalesce(level IN ('low', 'none'), false) AND coalesce(selector_dropped = 0, false))::int
  FROM (
    SELECT
      status = 'error' AS f,
      status <> 'error' AND selector_applied AS a,
      status <> 'error' AND selector_applied AND selector_kept IS NOT NULL AND selector_dropped IS NOT NULL AS c,
      status <> 'error' AND selector_applied AND coalesce(top_dropped, false) AS t
  ) AS x
$$;

CREATE OR REPLACE FUNCTION recall_insights_statements(src text, sign integer) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  stmts text[];
BEGIN
  IF sign NOT IN (1, -1) THEN
    RAISE EXCEPTION 'sign must be 1 or -1, not %', sign;
  END IF;
  stmts := ARRAY[
    format($q$
      INSERT INTO recall_rollup AS t (
        bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, recalls, failed, applied,
        counted, kept, dropped, listed_dropped, lost_any, level_high, level_moderate, level_low, level_none, selector_failed,
        high_top_dropped, moderate_top_dropped, low_top_dropped, none_top_dropped, weak_kept_all
      )
      SELECT
        date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        r.store, r.selector_applied, coalesce(r.selector_model, ''), coalesce(r.selector_reason, ''),
        coalesce(r.selector_prompt_version, ''),
        %2$s * count(*), %2$s * sum(c.failed), %2$s * sum(c.applied), %2$s * sum(c.counted),
        %2$s * sum(c.kept), %2$s * sum(c.dropped), %2$s * sum(c.listed_dropped), %2$s * sum(c.lost_any),
        %2$s * sum(c.level_high), %2$s * sum(c.level_moderate), %2$s * sum(c.level_low), %2$s * sum(c.level_none),
        %2$s * sum(c.selector_failed), %2$s * sum(c.high_top_dropped), %2$s * sum(c.moderate_top_dropped),
        %2$s * sum(c.low_top_dropped), %2$s * sum(c.none_top_dropped), %2$s * sum(c.weak_kept_all)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_insight_counts(
        r.status, r.level, r.selector_applied, r.selector_reason, r.selector_kept, r.selector_dropped,
        r.dropped_memory_ids, r.top_dropped
      ) AS c
      GROUP BY 1, 2, 3, 4, 5, 6
      ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version) DO UPDATE SET
        recalls = t.recalls + excluded.recalls,
        failed = t.failed + excluded.failed,
        applied = t.applied + excluded.applied,
        counted = t.counted + excluded.counted,
        kept = t.kept + excluded.kept,
        dropped = t.dropped + excluded.dropped,
        listed_dropped = t.listed_dropped + excluded.listed_dropped,
        lost_any = t.lost_any + excluded.lost_any,
        level_high = t.level_high + excluded.level_high,
        level_moderate = t.level_moderate + excluded.level_moderate,
        level_low = t.level_low + excluded.level_low,
        level_none = t.level_none + excluded.level_none,
        selector_failed = t.selector_failed + excluded.selector_failed,
        high_top_dropped = t.high_top_dropped + excluded.high_top_dropped,
        moderate_top_dropped = t.moderate_top_dropped + excluded.moderate_top_dropped,
        low_top_dropped = t.low_top_dropped + excluded.low_top_dropped,
        none_top_dropped = t.none_top_dropped + excluded.none_top_dropped,
        weak_kept_all = t.weak_kept_all + excluded.weak_kept_all
    $q$, src, sign),
    format($q$
      INSERT INTO recall_memory_rollup AS t (store, memory_id, selector_model, bucket, dropped, kept)
      SELECT
        r.store, e.memory_id, coalesce(r.selector_model, ''),
        date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        %2$s * sum(e.dropped), %2$s * sum(e.kept)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (store, memory_id, selector_model, bucket) DO UPDATE SET
        dropped = t.dropped + excluded.dropped,
        kept = t.kept + excluded.kept
    $q$, src, sign)
  ];
  IF sign < 0 THEN
    stmts := stmts || ARRAY[
      format($q$
        DELETE FROM recall_rollup AS t
        USING (
          SELECT DISTINCT date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                 r.store, r.selector_applied, coalesce(r.selector_model, '') AS selector_model,
                 coalesce(r.selector_reason, '') AS selector_reason,
                 coalesce(r.selector_prompt_version, '') AS selector_prompt_version
          FROM %1$I AS r
        ) AS o
        WHERE t.bucket = o.bucket AND t.store = o.store AND t.selector_applied = o.selector_applied
          AND t.selector_model = o.selector_model AND t.selector_reason = o.selector_reason
          AND t.selector_prompt_version = o.selector_prompt_version AND t.recalls <= 0
      $q$, src),
      format($q$
        DELETE FROM recall_memory_rollup AS t
        USING (
          SELECT DISTINCT r.store, e.memory_id, coalesce(r.selector_model, '') AS selector_model,
                 date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket
          FROM %1$I AS r
          CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
        ) AS o
        WHERE t.store = o.store AND t.memory_id = o.memory_id AND t.selector_model = o.selector_model
          AND t.bucket = o.bucket AND t.dropped <= 0 AND t.kept <= 0
      $q$, src)
    ];
  ELSE
    stmts := stmts || format($q$
      INSERT INTO recall_memory_summaries AS s (store, memory_id, summary, seen_at)
      SELECT DISTINCT ON (r.store, e.value ->> 'memory_id')
        r.store, e.value ->> 'memory_id', e.value ->> 'summary', r.created_at
      FROM %1$I AS r
      CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(r.results) = 'array' THEN r.results ELSE '[]'::jsonb END) AS e(value)
      WHERE (e.value ->> 'memory_id') IS NOT NULL AND coalesce(e.value ->> 'summary', '') <> ''
      ORDER BY r.store, e.value ->> 'memory_id', r.created_at DESC
      ON CONFLICT (store, memory_id) DO UPDATE SET summary = excluded.summary, seen_at = excluded.seen_at
        WHERE s.seen_at <= excluded.seen_at AND s.summary IS DISTINCT FROM excluded.summary
    $q$, src);
  END IF;
  RETURN stmts;
END
$fn$;

-- Rebuild the rollups from every logged recall under the new counters.
DO $$
DECLARE
  stmt text;
BEGIN
  FOREACH stmt IN ARRAY recall_insights_statements('recalls', 1) LOOP
    EXECUTE stmt;
  END LOOP;
END
$$;

-- "The level rests on a dropped memory", at every level, newest first. The predicate must stay
-- word for word what lib/insights/sql.ts asks.
DROP INDEX IF EXISTS "recalls_high_top_dropped_idx";
CREATE INDEX IF NOT EXISTS "recalls_top_dropped_idx" ON "recalls" ("created_at" DESC, "id" DESC)
  WHERE top_dropped AND selector_applied;
