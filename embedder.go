package graphrag

import "context"

// Embedder turns texts into vectors. Implementations batch as they see fit.
type Embedder interface {
	// Name is stable and identifies the model, e.g. "ollama:nomic-embed-text".
	// A store records it and refuses to be searched or extended by another.
	Name() string
	// Dimension is the length of every vector Embed returns.
	Dimension() int
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
