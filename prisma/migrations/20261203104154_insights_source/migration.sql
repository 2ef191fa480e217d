-- AlterTable
ALTER TABLE "recall_rollup" DROP CONSTRAINT "recall_rollup_pkey",
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'console',
ADD CONSTRAINT "recall_rollup_pkey" PRIMARY KEY ("bucket", "store", "selector_applied", "selector_model", "selector_reason", "selector_prompt_version", "level", "profile_name", "profile_level", "source");

-- AlterTable
ALTER TABLE "recall_memory_rollup" DROP CONSTRAINT "recall_memory_rollup_pkey",
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'console',
ADD CONSTRAINT "recall_memory_rollup_pkey" PRIMARY KEY ("store", "memory_id", "selector_model", "bucket", "level", "profile_name", "profile_level", "source");


-- =============================================================================================
-- Written by hand (issue 32, docs/ARCHITECTURE.md "Insights"): the rollups key on the recall's
-- source (console, ingest, proxy, otel, eval), so Insights can leave evaluation runs out of the
-- PM figures — by default — and filter by any source, from the rollups as before. Both write
-- paths (the set-based statements and the single-recall function) are replaced with the source
-- added to their keys, and the rollups rebuilt from every logged recall, as *_insights_profile_dims did.

TRUNCATE "recall_rollup", "recall_memory_rollup";

CREATE OR REPLACE FUNCTION recall_insights_add_one(r recalls) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO recall_rollup AS t (
    bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, level, profile_name,
    profile_level, source, recalls, failed, applied, counted, kept, dropped, listed_dropped, lost_any, level_high, level_moderate,
    level_low, level_none, selector_failed, high_top_dropped, moderate_top_dropped, low_top_dropped, none_top_dropped,
    weak_kept_all, kept_all, kept_none
  )
  SELECT
    date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
    r.store, r.selector_applied, coalesce(r.selector_model, ''), coalesce(r.selector_reason, ''),
    coalesce(r.selector_prompt_version, ''), coalesce(r.level, ''), coalesce(r.profile_name, ''),
    coalesce(r.profile_level, ''), r.source,
    1, c.failed, c.applied, c.counted, c.kept, c.dropped, c.listed_dropped, c.lost_any,
    c.level_high, c.level_moderate, c.level_low, c.level_none, c.selector_failed, c.high_top_dropped,
    c.moderate_top_dropped, c.low_top_dropped, c.none_top_dropped, c.weak_kept_all, c.kept_all, c.kept_none
  FROM recall_insight_counts(
    r.status, r.level, r.selector_applied, r.selector_reason, r.selector_kept, r.selector_dropped,
    r.dropped_memory_ids, r.top_dropped
  ) AS c
  ON CONFLICT (bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, level,
               profile_name, profile_level, source) DO UPDATE SET
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
    kept_none = t.kept_none + excluded.kept_none;

  INSERT INTO recall_memory_rollup AS t (
    store, memory_id, selector_model, bucket, level, profile_name, profile_level, source, dropped, kept
  )
  SELECT
    r.store, e.memory_id, coalesce(r.selector_model, ''),
    date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
    coalesce(r.level, ''), coalesce(r.profile_name, ''), coalesce(r.profile_level, ''), r.source,
    sum(e.dropped), sum(e.kept)
  FROM recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (store, memory_id, selector_model, bucket, level, profile_name, profile_level, source) DO UPDATE SET
    dropped = t.dropped + excluded.dropped,
    kept = t.kept + excluded.kept;

  INSERT INTO recall_memory_summaries AS s (store, memory_id, summary, seen_at)
  SELECT DISTINCT ON (e.value ->> 'memory_id')
    r.store, e.value ->> 'memory_id', e.value ->> 'summary', r.created_at
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.results) = 'array' THEN r.results ELSE '[]'::jsonb END) AS e(value)
  WHERE (e.value ->> 'memory_id') IS NOT NULL AND coalesce(e.value ->> 'summary', '') <> ''
  ORDER BY e.value ->> 'memory_id'
  ON CONFLICT (store, memory_id) DO UPDATE SET summary = excluded.summary, seen_at = excluded.seen_at
    WHERE s.seen_at <= excluded.seen_at AND s.summary IS DISTINCT FROM excluded.summary;
END
$fn$;

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
        profile_level, source, recalls, failed, applied, counted, kept, dropped, listed_dropped, lost_any, level_high, level_moderate,
        level_low, level_none, selector_failed, high_top_dropped, moderate_top_dropped, low_top_dropped, none_top_dropped,
        weak_kept_all, kept_all, kept_none
      )
      SELECT
        date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        r.store, r.selector_applied, coalesce(r.selector_model, ''), coalesce(r.selector_reason, ''),
        coalesce(r.selector_prompt_version, ''), coalesce(r.level, ''), coalesce(r.profile_name, ''),
        coalesce(r.profile_level, ''), r.source,
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
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
      ON CONFLICT (bucket, store, selector_applied, selector_model, selector_reason, selector_prompt_version, level,
                   profile_name, profile_level, source) DO UPDATE SET
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
        store, memory_id, selector_model, bucket, level, profile_name, profile_level, source, dropped, kept
      )
      SELECT
        r.store, e.memory_id, coalesce(r.selector_model, ''),
        date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        coalesce(r.level, ''), coalesce(r.profile_name, ''), coalesce(r.profile_level, ''), r.source,
        %2$s * sum(e.dropped), %2$s * sum(e.kept)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
      ON CONFLICT (store, memory_id, selector_model, bucket, level, profile_name, profile_level, source) DO UPDATE SET
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
                 coalesce(r.profile_level, '') AS profile_level, r.source
          FROM %1$I AS r
        ) AS o
        WHERE t.bucket = o.bucket AND t.store = o.store AND t.selector_applied = o.selector_applied
          AND t.selector_model = o.selector_model AND t.selector_reason = o.selector_reason
          AND t.selector_prompt_version = o.selector_prompt_version AND t.level = o.level
          AND t.profile_name = o.profile_name AND t.profile_level = o.profile_level AND t.source = o.source
          AND t.recalls <= 0
      $q$, src),
      format($q$
        DELETE FROM recall_memory_rollup AS t
        USING (
          SELECT DISTINCT r.store, e.memory_id, coalesce(r.selector_model, '') AS selector_model,
                 date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                 coalesce(r.level, '') AS level, coalesce(r.profile_name, '') AS profile_name,
                 coalesce(r.profile_level, '') AS profile_level, r.source
          FROM %1$I AS r
          CROSS JOIN LATERAL recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
        ) AS o
        WHERE t.store = o.store AND t.memory_id = o.memory_id AND t.selector_model = o.selector_model
          AND t.bucket = o.bucket AND t.level = o.level AND t.profile_name = o.profile_name
          AND t.profile_level = o.profile_level AND t.source = o.source AND t.dropped <= 0 AND t.kept <= 0
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

-- Rebuild the rollups from every logged recall under the new key.
DO $$
DECLARE
  stmt text;
BEGIN
  FOREACH stmt IN ARRAY recall_insights_statements('recalls', 1) LOOP
    EXECUTE stmt;
  END LOOP;
END
$$;

-- Most-dropped memories filtered by source still read the index alone.
DROP INDEX IF EXISTS "recall_memory_rollup_dropped_idx";
CREATE INDEX IF NOT EXISTS "recall_memory_rollup_dropped_idx" ON "recall_memory_rollup" ("bucket")
  INCLUDE ("store", "selector_model", "memory_id", "dropped", "level", "profile_name", "profile_level", "source") WHERE "dropped" > 0;
