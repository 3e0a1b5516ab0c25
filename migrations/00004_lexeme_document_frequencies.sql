-- Document frequencies of each collection's lexemes, for keyword ranking.
--
-- ts_rank_cd has no inverse document frequency: a common word counts as much
-- as a rare one. lexeme_df holds, per collection, how many chunks hold each
-- lexeme of their tsvector, and collections.chunk_count how many chunks the
-- collection has; the store keeps both up to date in the transaction of
-- every Put and Delete (writers of a collection already take its advisory
-- lock, so the rows are not contended), and a query reads the rows of its
-- own words (a primary-key lookup each).

-- +goose Up
ALTER TABLE collections ADD COLUMN chunk_count bigint NOT NULL DEFAULT 0;

CREATE TABLE lexeme_df (
    collection_id bigint NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    lexeme        text NOT NULL,
    df            bigint NOT NULL CHECK (df >= 0),
    PRIMARY KEY (collection_id, lexeme)
);

-- Backfill the collections that exist.
UPDATE collections co SET chunk_count = (SELECT count(*) FROM chunks c WHERE c.collection_id = co.id);
INSERT INTO lexeme_df (collection_id, lexeme, df)
SELECT c.collection_id, u.lexeme, count(*)
FROM chunks c, unnest(c.tsv) u
GROUP BY c.collection_id, u.lexeme;

-- +goose Down
DROP TABLE IF EXISTS lexeme_df;
ALTER TABLE collections DROP COLUMN IF EXISTS chunk_count;
