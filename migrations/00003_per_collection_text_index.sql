-- One GIN index per collection instead of one over every collection.
--
-- With a single GIN index on chunks(tsv), a keyword query of one collection
-- read and discarded the matching chunks of every other collection: adding a
-- 1M-chunk collection doubled the keyword latency of a 100k-chunk one. A
-- partial index per collection (like the HNSW index) keeps each collection's
-- queries to its own rows, and a collection's first load builds it in one
-- pass after the rows are in. The planner uses it because the store's
-- queries carry the collection id as a constant (custom plans).

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION graphrag_ensure_gin(p_collection bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    idx text := format('chunks_tsv_c%s_idx', p_collection);
BEGIN
    IF EXISTS (SELECT FROM pg_class WHERE relname = idx AND relkind = 'i'
               AND relnamespace = current_schema()::regnamespace) THEN
        RETURN idx;
    END IF;
    IF pg_size_bytes(current_setting('maintenance_work_mem')) < 256 * 1024 * 1024 THEN
        PERFORM set_config('maintenance_work_mem', '256MB', true);
    END IF;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON chunks USING gin (tsv) WHERE collection_id = %s',
        idx, p_collection);
    RETURN idx;
END
$$;
-- +goose StatementEnd

SELECT graphrag_ensure_gin(id) FROM collections;
DROP INDEX IF EXISTS chunks_tsv_idx;

-- +goose Down
CREATE INDEX IF NOT EXISTS chunks_tsv_idx ON chunks USING gin (tsv);
-- +goose StatementBegin
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.relname FROM pg_class c
             WHERE c.relkind = 'i' AND c.relnamespace = current_schema()::regnamespace
               AND c.relname ~ '^chunks_tsv_c[0-9]+_idx$'
    LOOP
        EXECUTE format('DROP INDEX IF EXISTS %I', r.relname);
    END LOOP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION IF EXISTS graphrag_ensure_gin(bigint);
