-- AlterTable
ALTER TABLE "recall_rollup" DROP CONSTRAINT "recall_rollup_pkey",
ADD COLUMN     "kept_all" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "kept_none" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "level" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "profile_level" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "profile_name" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "recall_rollup_pkey" PRIMARY KEY ("bucket", "store", "selector_applied", "selector_model", "selector_reason", "selector_prompt_version", "level", "profile_name", "profile_level");

-- AlterTable
ALTER TABLE "recall_memory_rollup" DROP CONSTRAINT "recall_memory_rollup_pkey",
ADD COLUMN     "level" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "profile_level" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "profile_name" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "recall_memory_rollup_pkey" PRIMARY KEY ("store", "memory_id", "selector_model", "bucket", "level", "profile_name", "profile_level");


-- =============================================================================================
-- Written by hand (issues 15 and 18, docs/ARCHITECTURE.md "Insights"): the rollups key on the
-- reference level, the store's threshold profile and the level under it, so Insights filters and
-- groups by either level exactly as History does; two counters hold the selector's verdict (it
-- dropped nothing / kept nothing) for the level-vs-selector agreement rates. The functions are
-- replaced and the rollups rebuilt from every logged recall, as *_selector_truth did.

TRUNCATE "recall_rollup", "recall_memory_rollup";

DROP FUNCTION IF EXISTS recall_insight_counts(text, text, boolean, text, integer, integer, text[], boolean);
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
  weak_kept_all integer,
  kept_all integer,
  kept_none integer
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
    (x.a AND coalesce(level IN ('low', 'none'), false) AND coalesce(selector_dropped = 0, false))::int,
    (x.c AND selector_dropped = 0)::int,
    (x.c AND selector_kept = 0)::int
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
        bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, level, profile_name,
        profile_level, recalls, failed, applied, counted, kept, dropped, listed_dropped, lost_any, level_high, level_moderate,
        level_low, level_none, selector_failed, high_top_dropped, moderate_top_dropped, low_top_dropped, none_top_dropped,
        weak_kept_all, kept_all, kept_none
      )
      SELECT
        date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        r.store, r.selector_applied, coalesce(r.selector_model, ''), coalesce(r.selector_reason, ''),
        coalesce(r.selector_prompt_version, ''), coalesce(r.level, ''), coalesce(r.profile_name, ''),
        coalesce(r.profile_level, ''),
        %2$s * count(*), %2$s * sum(c.failed), %2$s * sum(c.applied), %2$s * sum(c.counted),
        %2$s * sum(c.kept), %2$s * sum(c.dropped), %2$s * sum(c.listed_dropped), %2$s * sum(c.lost_any),
        %2$s * sum(c.level_high), %2$s * sum(c.level_moderate), %2$s * sum(c.level_low), %2$s * sum(c.level_none),
        %2$s * sum(c.selector_failed), %2$s * sum(c.high_top_dropped), %2$s * sum(c.moderate_top_dropped),
        %2$s * sum(c.low_top_dropped), %2$s * sum(c.none_top_dropped), %2$s * sum(c.weak_kept_all),
        %2$s * sum(c.kept_all), %2$s * sum(c.kept_none)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_insight_counts(
        r.status, r.level, r.selector_applied, r.selector_reason, r.selector_kept, r.selector_dropped,
        r.dropped_memory_ids, r.top_dropped
      ) AS c
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
      ON CONFLICT (bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, level,
                   profile_name, profile_level) DO UPDATE SET
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
        weak_kept_all = t.weak_kept_all + excluded.weak_kept_all,
        kept_all = t.kept_all + excluded.kept_all,
        kept_none = t.kept_none + excluded.kept_none
    $q$, src, sign),
    format($q$
      INSERT INTO recall_memory_rollup AS t (
        store, memory_id, selector_model, bucket, level, profile_name, profile_level, dropped, kept
      )
      SELECT
        r.store, e.memory_id, coalesce(r.selector_model, ''),
        date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        coalesce(r.level, ''), coalesce(r.profile_name, ''), coalesce(r.profile_level, ''),
        %2$s * sum(e.dropped), %2$s * sum(e.kept)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
      GROUP BY 1, 2, 3, 4, 5, 6, 7
      ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT (store, memory_id, selector_model, bucket, level, profile_name, profile_level) DO UPDATE SET
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
                 coalesce(r.selector_prompt_version, '') AS selector_prompt_version,
                 coalesce(r.level, '') AS level, coalesce(r.profile_name, '') AS profile_name,
                 coalesce(r.profile_level, '') AS profile_level
          FROM %1$I AS r
        ) AS o
        WHERE t.bucket = o.bucket AND t.store = o.store AND t.selector_applied = o.selector_applied
          AND t.selector_model = o.selector_model AND t.selector_reason = o.selector_reason
          AND t.selector_prompt_version = o.selector_prompt_version AND t.level = o.level
          AND t.profile_name = o.profile_name AND t.profile_level = o.profile_level AND t.recalls <= 0
      $q$, src),
      format($q$
        DELETE FROM recall_memory_rollup AS t
        USING (
          SELECT DISTINCT r.store, e.memory_id, coalesce(r.selector_model, '') AS selector_model,
                 date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                 coalesce(r.level, '') AS level, coalesce(r.profile_name, '') AS profile_name,
                 coalesce(r.profile_level, '') AS profile_level
          FROM %1$I AS r
          CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
        ) AS o
        WHERE t.store = o.store AND t.memory_id = o.memory_id AND t.selector_model = o.selector_model
          AND t.bucket = o.bucket AND t.level = o.level AND t.profile_name = o.profile_name
          AND t.profile_level = o.profile_level AND t.dropped <= 0 AND t.kept <= 0
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

-- Rebuild the rollups from every logged recall under the new keys and counters.
DO $$
DECLARE
  stmt text;
BEGIN
  FOREACH stmt IN ARRAY recall_insights_statements('recalls', 1) LOOP
    EXECUTE stmt;
  END LOOP;
END
$$;

-- Most-dropped memories filtered by level or profile still read the index alone.
DROP INDEX IF EXISTS "recall_memory_rollup_dropped_idx";
CREATE INDEX IF NOT EXISTS "recall_memory_rollup_dropped_idx" ON "recall_memory_rollup" ("bucket")
  INCLUDE ("store", "selector_model", "memory_id", "dropped", "level", "profile_name", "profile_level") WHERE "dropped" > 0;
