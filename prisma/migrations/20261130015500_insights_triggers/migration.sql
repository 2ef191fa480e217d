-- Insights (GET /api/insights, lib/insights): what keeps the rollups of *_insights_rollups true,
-- and the partial indexes of the disagreement lists. Written by hand: schema.prisma cannot
-- express functions, triggers or partial indexes (and schema diffs ignore them).
--
-- Every recall statement (INSERT, UPDATE, DELETE, TRUNCATE) updates the rollups in the same
-- transaction, once per statement (transition tables), so a batch of 500 ingested recalls is
-- one upsert per rollup, and retention's batched deletes subtract what they remove.

-- ---------------------------------------------------------------------------------------------
-- One recall's counters: the single definition, used by the triggers, the backfill below and
-- lib/insights/sql.ts (the edges of a range that do not fill a whole rollup bucket).
-- Failed recalls (status error) count in volume only: every other counter is 0 for them.
CREATE OR REPLACE FUNCTION recall_insight_counts(
  status text,
  level text,
  selector_applied boolean,
  selector_kept integer,
  selector_dropped integer,
  dropped_memory_ids text[],
  results jsonb
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
  high_top_dropped integer,
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
    (x.a AND coalesce(level = 'high', false)
         AND coalesce(((results -> 0) ->> 'memory_id') = ANY (dropped_memory_ids), false))::int,
    (x.a AND coalesce(level IN ('low', 'none'), false) AND coalesce(selector_dropped = 0, false))::int
  FROM (
    SELECT
      status = 'error' AS f,
      status <> 'error' AND selector_applied AS a,
      status <> 'error' AND selector_applied AND selector_kept IS NOT NULL AND selector_dropped IS NOT NULL AS c
  ) AS x
$$;

-- One recall's page as the selector saw it, per memory: dropped (from dropped_memory_ids, capped
-- at 20 per recall) or kept (on the page, neither flagged dropped nor listed). Only recalls the
-- selector ran on (and that did not fail) have entries.
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
-- The statements that add (sign 1) or subtract (sign -1) the recalls of relation `src` (a
-- transition table, or "recalls" itself for the backfill) to or from the rollups. Built as text
-- once here so the three trigger events and the backfill share one definition.
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
        bucket, store, selector_applied, selector_model, selector_reason, recalls, failed, applied, counted, kept, dropped,
        listed_dropped, lost_any, level_high, level_moderate, level_low, level_none, high_top_dropped, weak_kept_all
      )
      SELECT
        date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
        r.store, r.selector_applied, coalesce(r.selector_model, ''), coalesce(r.selector_reason, ''),
        %2$s * count(*), %2$s * sum(c.failed), %2$s * sum(c.applied), %2$s * sum(c.counted),
        %2$s * sum(c.kept), %2$s * sum(c.dropped), %2$s * sum(c.listed_dropped), %2$s * sum(c.lost_any),
        %2$s * sum(c.level_high), %2$s * sum(c.level_moderate), %2$s * sum(c.level_low), %2$s * sum(c.level_none),
        %2$s * sum(c.high_top_dropped), %2$s * sum(c.weak_kept_all)
      FROM %1$I AS r
      CROSS JOIN LATERAL recall_insight_counts(
        r.status, r.level, r.selector_applied, r.selector_kept, r.selector_dropped, r.dropped_memory_ids, r.results
      ) AS c
      GROUP BY 1, 2, 3, 4, 5
      ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (bucket, store, selector_applied, selector_model, selector_reason) DO UPDATE SET
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
        high_top_dropped = t.high_top_dropped + excluded.high_top_dropped,
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
    -- Rows the subtraction emptied go (retention would otherwise leave zeros behind forever).
    stmts := stmts || ARRAY[
      format($q$
        DELETE FROM recall_rollup AS t
        USING (
          SELECT DISTINCT date_bin('15 minutes', r.created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                 r.store, r.selector_applied, coalesce(r.selector_model, '') AS selector_model,
                 coalesce(r.selector_reason, '') AS selector_reason
          FROM %1$I AS r
        ) AS o
        WHERE t.bucket = o.bucket AND t.store = o.store AND t.selector_applied = o.selector_applied
          AND t.selector_model = o.selector_model AND t.selector_reason = o.selector_reason AND t.recalls <= 0
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
    -- The latest summary seen on a page, per store and memory (kept when recalls go).
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

CREATE OR REPLACE FUNCTION recall_insights_maintain() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  stmt text;
BEGIN
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

CREATE OR REPLACE FUNCTION recall_insights_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE recall_rollup, recall_memory_rollup;
  RETURN NULL;
END
$fn$;

-- A trigger with transition tables serves one event, hence three.
CREATE TRIGGER recalls_insights_insert AFTER INSERT ON recalls
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_update AFTER UPDATE ON recalls
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_delete AFTER DELETE ON recalls
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_maintain();
CREATE TRIGGER recalls_insights_truncate AFTER TRUNCATE ON recalls
  FOR EACH STATEMENT EXECUTE FUNCTION recall_insights_truncate();

-- ---------------------------------------------------------------------------------------------
-- Backfill what is already logged. The triggers exist first: creating them locked out concurrent
-- writers until this migration commits, so no recall is counted twice or missed.
DO $$
DECLARE
  stmt text;
BEGIN
  FOREACH stmt IN ARRAY recall_insights_statements('recalls', 1) LOOP
    EXECUTE stmt;
  END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Indexes.

-- Most-dropped memories rank every (store, memory) dropped in the range: only rows with drops,
-- read from the index alone where the visibility map allows.
CREATE INDEX IF NOT EXISTS "recall_memory_rollup_dropped_idx" ON "recall_memory_rollup" ("bucket")
  INCLUDE ("store", "selector_model", "memory_id", "dropped") WHERE "dropped" > 0;

-- The two disagreement lists, newest first. The predicates must stay word for word what
-- lib/insights/sql.ts asks, or the planner cannot use them.
CREATE INDEX IF NOT EXISTS "recalls_high_top_dropped_idx" ON "recalls" ("created_at" DESC, "id" DESC)
  WHERE level = 'high' AND selector_applied AND ((results -> 0) ->> 'memory_id') = ANY (dropped_memory_ids);
CREATE INDEX IF NOT EXISTS "recalls_weak_kept_all_idx" ON "recalls" ("created_at" DESC, "id" DESC)
  WHERE level IN ('low', 'none') AND selector_applied AND selector_dropped = 0;
