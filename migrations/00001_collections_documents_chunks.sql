-- graphrag's store: collections of documents, cut into chunks.
--
-- One chunks table serves every collection. Embeddings live in an untyped
-- `vector` column because each collection records its own embedder and
-- dimension; the HNSW index of a collection is a partial expression index on
-- (embedding::vector(dim)) WHERE collection_id = <id>, created by
-- graphrag_ensure_hnsw after the collection's first load (see below).

-- +goose Up
CREATE TABLE collections (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text NOT NULL UNIQUE CHECK (name <> ''),
    -- The embedder that built the collection: "" and 0 for keyword-only.
    embedder   text NOT NULL DEFAULT '',
    dimension  integer NOT NULL DEFAULT 0 CHECK (dimension BETWEEN 0 AND 16000),
    -- Text-search configuration of the chunks' tsvector ('simple' works for any language).
    ts_config  regconfig NOT NULL DEFAULT 'simple',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((embedder = '') = (dimension = 0))
);

CREATE TABLE documents (
    collection_id bigint NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    id            text NOT NULL,
    path          text NOT NULL DEFAULT '',
    title         text NOT NULL DEFAULT '',
    type          text NOT NULL DEFAULT '',
    hash          text NOT NULL DEFAULT '',
    size          bigint NOT NULL DEFAULT 0,
    mtime         timestamptz,
    metadata      jsonb NOT NULL DEFAULT '{}',
    ingested_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, id)
);
CREATE INDEX documents_mtime_idx ON documents (collection_id, mtime);
CREATE INDEX documents_type_idx ON documents (collection_id, lower(type));

CREATE TABLE chunks (
    collection_id bigint NOT NULL,
    doc_id        text NOT NULL,
    ordinal       integer NOT NULL CHECK (ordinal >= 0),
    -- The document's title, repeated so the generated tsvector can weigh it.
    title         text NOT NULL DEFAULT '',
    text          text NOT NULL,
    -- The collection's text-search configuration, as an oid (regconfig has no binary
    -- COPY codec in pgx; the cast back to regconfig is binary-coercible, hence immutable).
    ts_config     oid NOT NULL,
    tsv           tsvector GENERATED ALWAYS AS (
                      setweight(to_tsvector(ts_config::regconfig, title), 'A') ||
                      setweight(to_tsvector(ts_config::regconfig, text), 'B')) STORED,
    embedding     vector,
    PRIMARY KEY (collection_id, doc_id, ordinal),
    FOREIGN KEY (collection_id, doc_id) REFERENCES documents (collection_id, id) ON DELETE CASCADE
);
CREATE INDEX chunks_tsv_idx ON chunks USING gin (tsv);

-- graphrag_ensure_hnsw creates the HNSW cosine index of one collection: a
-- partial index over the embeddings cast to the collection's dimension. The
-- store calls it at the end of each Put that writes embeddings, so a new
-- collection's first (bulk) load builds the graph once instead of inserting
-- row by row, several times faster.
-- Queries use the same expression and predicate, so the planner picks it.
-- Both arguments are integers, so format() cannot inject anything.
-- +goose StatementBegin
CREATE FUNCTION graphrag_ensure_hnsw(p_collection bigint, p_dim integer) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    idx text := format('chunks_embedding_c%s_d%s_idx', p_collection, p_dim);
BEGIN
    IF p_dim <= 0 OR p_dim > 2000 THEN
        -- HNSW indexes vectors of up to 2,000 dimensions; larger ones are searched exactly.
        RETURN NULL;
    END IF;
    -- Look first: CREATE INDEX IF NOT EXISTS would still take a SHARE lock on
    -- chunks, queueing behind every other collection's open write.
    IF EXISTS (SELECT FROM pg_class WHERE relname = idx AND relkind = 'i'
               AND relnamespace = current_schema()::regnamespace) THEN
        RETURN idx;
    END IF;
    -- Room for the graph of a first load to be built in memory (this transaction only).
    IF pg_size_bytes(current_setting('maintenance_work_mem')) < 256 * 1024 * 1024 THEN
        PERFORM set_config('maintenance_work_mem', '256MB', true);
    END IF;
    EXECUTE format(
        'CREATE INDEX IF NOT EXISTS %I ON chunks USING hnsw ((embedding::vector(%s)) vector_cosine_ops) WHERE collection_id = %s',
        idx, p_dim, p_collection);
    RETURN idx;
END
$$;
-- +goose StatementEnd

-- graphrag_drop_hnsw drops every HNSW index of one collection (when an empty
-- collection adopts another embedder).
-- +goose StatementBegin
CREATE FUNCTION graphrag_drop_hnsw(p_collection bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.relname FROM pg_class c
             WHERE c.relkind = 'i' AND c.relnamespace = current_schema()::regnamespace
               AND c.relname LIKE format('chunks\_embedding\_c%s\_d%%', p_collection)
    LOOP
        EXECUTE format('DROP INDEX IF EXISTS %I', r.relname);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION IF EXISTS graphrag_drop_hnsw(bigint);
DROP FUNCTION IF EXISTS graphrag_ensure_hnsw(bigint, integer);
DROP TABLE IF EXISTS chunks;
DROP TABLE IF EXISTS documents;
DROP TABLE IF EXISTS collections;
