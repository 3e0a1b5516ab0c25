-- Where a chunk sits in its document (graphrag.Chunk): the heading path of a
-- text section or the declaration of a code chunk, the symbol a code chunk
-- declares, its kind ("func", "section", ...) and its 1-based inclusive line
-- range, 0 when unknown.
--
-- Columns with a constant default are added without rewriting the table
-- (PostgreSQL 11+): chunks stored before read as unknown ('' and 0) until
-- their document is ingested again.

-- +goose Up
ALTER TABLE chunks
    ADD COLUMN heading    text NOT NULL DEFAULT '',
    ADD COLUMN symbol     text NOT NULL DEFAULT '',
    ADD COLUMN kind       text NOT NULL DEFAULT '',
    ADD COLUMN start_line integer NOT NULL DEFAULT 0,
    ADD COLUMN end_line   integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE chunks
    DROP COLUMN IF EXISTS end_line,
    DROP COLUMN IF EXISTS start_line,
    DROP COLUMN IF EXISTS kind,
    DROP COLUMN IF EXISTS symbol,
    DROP COLUMN IF EXISTS heading;
