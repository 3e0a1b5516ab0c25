-- Small facts a program keeps about a collection beside its documents, e.g.
-- graphrag's record of the folders ingested into it (see `graphrag sources`).
--
-- Keyed by the collection's name rather than its id: a program may record
-- facts before the first Put creates the collection's row.

-- +goose Up
CREATE TABLE collection_meta (
    collection text NOT NULL,
    key        text NOT NULL CHECK (key <> ''),
    value      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection, key)
);

-- +goose Down
DROP TABLE IF EXISTS collection_meta;
