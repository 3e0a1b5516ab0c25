package ingest

// ChunkLargeForTest exposes chunkLarge to the external tests.
var ChunkLargeForTest = chunkLarge

// SetCorpusPartBytes sets corpusPartBytes until the returned func runs.
func SetCorpusPartBytes(n int) (restore func()) {
	old := corpusPartBytes
	corpusPartBytes = n
	return func() { corpusPartBytes = old }
}
