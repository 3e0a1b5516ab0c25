package ingest

// ChunkLargeForTest exposes chunkLarge to the external tests.
var ChunkLargeForTest = chunkLarge
