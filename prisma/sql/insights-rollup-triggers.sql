-- The Insights rollup triggers as the migrations leave them: the current definition of every
-- function and trigger that keeps recall_rollup, recall_memory_rollup and recall_memory_summaries
-- true (GET /api/insights, lib/insights; lib/insights/README.md "Insights"). Every recall statement
-- (INSERT, UPDATE, DELETE, TRUNCATE) updates the rollups in the same transaction, once per
-- statement; the app never writes them.
--
-- For reading only: the migrations are what run. Each definition is copied from the latest
-- migration that (re)defines it, named above it. A change is a new migration (CREATE OR REPLACE,
-- and a rebuild of the rollups when the keys or counters change) plus the same edit here:
-- tests/db/insights-rollup-triggers.test.ts fails while the two differ.

-- ---------------------------------------------------------------------------------------------
-- A selector reason's kind (off, unavailable, skipped, failed, unknown). Mirrors
-- SELECTOR_REASON_KINDS in lib/recall/selector-reasons.ts (a unit test holds the two together).
-- From prisma/migrations/20261201091348_selector_truth.
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

-- ---------------------------------------------------------------------------------------------
-- One recall's counters: the single definition, used by both write paths below, the backfills of
-- the migrations and lib/insights (the edges of a range that do not fill a whole rollup bucket).
-- Failed recalls (status error) count in volume only: every other counter is 0 for them.
-- From prisma/migrations/20261201150400_insights_profile_dims.
CREATE OR REPLACE FUNCTION recall_insight_counts(
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

-- ---------------------------------------------------------------------------------------------
-- One recall's page as the selector saw it, per memory: dropped (from dropped_memory_ids, capped
-- at 20 per recall) or kept (on the page, neither flagged dropped nor listed). Only recalls the
-- selector ran on (and that did not fail) have entries.
-- From prisma/migrations/20261130015500_insights_triggers.
CREATE OR REPLACE FUNCTION recall_memory_entries(
  status text,
  selector_applied boolean,
  dropped_memory_ids text[],
  results jsonb
) RETURNS TABLE (memory_id text, dropped integer, kept integer) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT d.id, 1, 0
  FROM unnest(dropped_memory_ids) AS d(id)
  WHERE status <> 'error' AND selector_applied
  UNION ALL
  SELECT e.value ->> 'memory_id', 0, 1
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(results) = 'array' THEN results ELSE '[]'::jsonb END) AS e(value)
  WHERE status <> 'error' AND selector_applied
    AND (e.value ->> 'memory_id') IS NOT NULL
    AND (e.value -> 'dropped') IS DISTINCT FROM 'true'::jsonb
    AND NOT coalesce((e.value ->> 'memory_id') = ANY (dropped_memory_ids), false)
$$;

-- ---------------------------------------------------------------------------------------------
-- The set-based path: the statements that add (sign 1) or subtract (sign -1) the recalls of
-- relation `src` (a transition table, or "recalls" itself for a backfill) to or from the rollups.
-- Built as text once so the trigger events and the backfills share one definition.
-- From prisma/migrations/20261203104154_insights_source.
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

-- ---------------------------------------------------------------------------------------------
-- The single-recall path: one inserted recall added to the three rollups with static SQL, whose
-- plans plpgsql keeps per connection (a transition table's statements are planned on every run,
-- which for one row cost more than the recall's own INSERT). The same keys and counters as
-- recall_insights_statements('…', 1); tests/insights holds the two paths to the same rollups.
-- From prisma/migrations/20261203104154_insights_source.
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

-- ---------------------------------------------------------------------------------------------
-- The trigger function of INSERT, UPDATE and DELETE: one inserted row takes the single-recall
-- path; batches, updates and deletes take the set-based one.
-- From prisma/migrations/20261201210000_insights_single_recall.
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

-- ---------------------------------------------------------------------------------------------
-- TRUNCATE recalls empties the rollups (recall_memory_summaries keep their summaries).
-- From prisma/migrations/20261130015500_insights_triggers.
CREATE OR REPLACE FUNCTION recall_insights_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE recall_rollup, recall_memory_rollup;
  RETURN NULL;
END
$fn$;

-- ---------------------------------------------------------------------------------------------
-- A trigger with transition tables serves one event, hence three, and one for TRUNCATE.
-- From prisma/migrations/20261130015500_insights_triggers.
CREATE TRIGGER recalls_insights_insert AFTER INSERT ON recalls
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_update AFTER UPDATE ON recalls
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_delete AFTER DELETE ON recalls
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_truncate AFTER TRUNCATE ON recalls
  FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_truncate();
