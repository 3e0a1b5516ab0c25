package llm

import "time"

// SetClock replaces the clock of m's circuit breakers (tests).
func SetClock(m *Models, now func() time.Time) { m.breakers.setClock(now) }

// SetEmbedderClock replaces the clock of e's circuit breaker (tests).
func SetEmbedderClock(e *Embedder, now func() time.Time) {
	if b := e.breaker; b != nil {
		b.mu.Lock()
		b.now = now
		b.mu.Unlock()
	}
}

// Prepare exposes the image preprocessing (benchmarks).
func (c *Captioner) Prepare(data []byte) ([]byte, error) { return c.prepare(data) }

// MaxAlternatives exposes maxAlternatives (tests).
const MaxAlternatives = maxAlternatives
