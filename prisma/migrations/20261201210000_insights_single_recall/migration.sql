-- Written by hand (docs/ARCHITECTURE.md "Insights"): a statement that logs ONE recall — every
-- recall the console, the proxy or a captured span makes — updates the rollups through static SQL
-- in a function of its own, whose plans plpgsql prepares once per connection. The set-based
-- statements of recall_insights_statements run over a transition table, which plpgsql cannot
-- keep a plan for: every run re-plans them, and for one row the planning cost more than the
-- recall's own INSERT (npm run bench -- start, "outside the store"). Batches (ingest, the
-- backfills) and every UPDATE and DELETE keep the set-based path; tests/insights holds the two
-- paths to the same rollups.

-- One recall added to the three rollups: the statements of recall_insights_statements('…', 1)
-- for a single row, counted by the same recall_insight_counts and recall_memory_entries.
CREATE OR REPLACE FUNCTION recall_insights_add_one(r recalls) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
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
    1, c.failed, c.applied, c.counted, c.kept, c.dropped, c.listed_dropped, c.lost_any,
    c.level_high, c.level_moderate, c.level_low, c.level_none, c.selector_failed, c.high_top_dropped,
    c.moderate_top_dropped, c.low_top_dropped, c.none_top_dropped, c.weak_kept_all, c.kept_all, c.kept_none
  FROM recall_insight_counts(
    r.status, r.level, r.selector_applied, r.selector_reason, r.selector_kept, r.selector_dropped,
    r.dropped_memory_ids, r.top_dropped
  ) AS c
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
    kept_none = t.kept_none + excluded.kept_none;

  INSERT INTO recall_memory_rollup AS t (
    store, memory_id, selector_model, bucket, level, profile_name, profile_level, dropped, kept
  )
  SELECT
    r.store, e.memory_id, coalesce(r.selector_model, ''),
    date_bin('1 hour', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
    coalesce(r.level, ''), coalesce(r.profile_name, ''), coalesce(r.profile_level, ''),
    sum(e.dropped), sum(e.kept)
  FROM recall_memory_entries(r.status, r.selector_applied, r.dropped_memory_ids, r.results) AS e
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (store, memory_id, selector_model, bucket, level, profile_name, profile_level) DO UPDATE SET
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

CREATE OR REPLACE FUNCTION recall_insights_maintain() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  stmt text;
  one recalls;
BEGIN
  -- One inserted row: the cached plans above. (Planning this probe is trivial; it is nested
  -- because new_rows exists only for INSERT and UPDATE.)
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows OFFSET 1) THEN
      FOR one IN SELECT * FROM new_rows LOOP
        PERFORM recall_insights_add_one(one);
      END LOOP;
      RETURN NULL;
    END IF;
  END IF;
  -- The transition tables are visible to EXECUTE in this function (not in functions it calls).
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    FOREACH stmt IN ARRAY recall_insights_statements('old_rows', -1) LOOP
      EXECUTE stmt;
    END LOOP;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    FOREACH stmt IN ARRAY recall_insights_statements('new_rows', 1) LOOP
      EXECUTE stmt;
    END LOOP;
  END IF;
  RETURN NULL;
END
$fn$;
