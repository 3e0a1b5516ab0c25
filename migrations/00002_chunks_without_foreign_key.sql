-- Drop the foreign key from chunks to documents.
--
-- Its per-row check made large loads quadratic: the check runs as a cached
-- generic plan, and on a 1M-chunk first load that plan scanned the new
-- collection's documents for every chunk (minutes per 5,000-row COPY batch).
-- The store writes a document and its chunks in one transaction and deletes
-- a document's chunks explicitly in the same statement group, so the key
-- guarded nothing the store does not already guarantee.

-- +goose Up
ALTER TABLE chunks DROP CONSTRAINT IF EXISTS chunks_collection_id_doc_id_fkey;

-- +goose Down
DELETE FROM chunks c WHERE NOT EXISTS (
    SELECT FROM documents d WHERE d.collection_id = c.collection_id AND d.id = c.doc_id);
ALTER TABLE chunks ADD CONSTRAINT chunks_collection_id_doc_id_fkey
    FOREIGN KEY (collection_id, doc_id) REFERENCES documents (collection_id, id) ON DELETE CASCADE;
