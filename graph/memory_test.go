package graph_test

import (
	"testing"

	"github.com/graphrag/graphrag/graph"
	"github.com/graphrag/graphrag/graph/checkpoint/checkpointtest"
)

func TestMemorySaverConformance(t *testing.T) {
	checkpointtest.Run(t, func(*testing.T) graph.CheckpointStore { return graph.NewMemorySaver() })
}
