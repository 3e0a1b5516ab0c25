package llm

import "time"

// Config configures the models. The zero value of every field except
// Router means "use the default" (see DefaultConfig).
type Config struct {
	// Router is the small, fast model for decisions: planning, grading,
	// rewriting and judging. Required.
	Router Spec
	// Writer is the model that writes answers; zero means Router.
	Writer Spec
	// Embed is the embedding model; zero means none.
	Embed Spec
	// Vision is the vision model that captions images; zero means none.
	// New does not build it (NewCaptioner does); Doctor checks it.
	Vision Spec
	// EmbedDimension is the embedding length; 0 means discover it with one
	// probe call when the embedder is built.
	EmbedDimension int
	// EmbedBatch is how many texts go in one embedding request.
	EmbedBatch int

	// Timeout bounds one decision call, retries included.
	Timeout time.Duration
	// WriteTimeout bounds one answer, streaming included.
	WriteTimeout time.Duration
	// EmbedTimeout bounds one embedding request.
	EmbedTimeout time.Duration
	// CaptionTimeout bounds one image caption (a vision model on a CPU
	// takes tens of seconds).
	CaptionTimeout time.Duration
	// CaptionMaxSide is the longest side, in pixels, an image is shrunk to
	// before it is sent to the vision model.
	CaptionMaxSide int
	// CaptionMaxPixels is the largest image (width×height, read from its
	// header) a Captioner decodes; larger ones are refused unread, so a
	// decompression bomb cannot exhaust memory.
	CaptionMaxPixels int
	// Retries is how many times a call is retried after a connection error
	// or a 5xx/429 response. A negative value means none.
	Retries int
	// Backoff is the first wait before a retry; it doubles each time, up to
	// MaxBackoff. A 429's Retry-After is honoured up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// UnreachableCooldown is how long every call to a model server fails
	// at once (ErrUnreachable, "skipped: ...") after a call found it
	// unreachable; then one call probes it. The breaker is per server,
	// shared by all the roles of one Models. Timeouts and 5xx/429 answers
	// do not open it (the server is up, or slow). A negative value turns
	// it off.
	UnreachableCooldown time.Duration

	// DecideTemperature and WriteTemperature are the sampling temperatures
	// of the two roles; nil means the default (0.1 and 0.3). Both adapters
	// would otherwise send 0.
	DecideTemperature, WriteTemperature *float64
	// DecideMaxTokens and WriteMaxTokens cap the length of each output.
	DecideMaxTokens, WriteMaxTokens int
	// NumCtx is Ollama's context window. Ollama's default (2048 tokens on
	// many versions) silently cuts a grading prompt of eight chunks.
	NumCtx int
	// APIKey is sent to OpenAI-compatible servers. llama-server needs none,
	// but the adapter refuses to start without one, so a placeholder is sent.
	APIKey string

	// GradeChunkChars caps the text of each chunk shown to the grader and
	// the judge; GradeMaxChunks caps how many chunks are graded (the rest
	// count as not relevant).
	GradeChunkChars, GradeMaxChunks int
	// HistoryTurns is how many past turns the planner and writer see.
	HistoryTurns int
}

// DefaultConfig returns the defaults, with no models set.
func DefaultConfig() Config {
	dt, wt := 0.1, 0.3
	return Config{
		EmbedBatch:          32,
		Timeout:             60 * time.Second,
		WriteTimeout:        5 * time.Minute,
		EmbedTimeout:        2 * time.Minute,
		CaptionTimeout:      2 * time.Minute,
		CaptionMaxSide:      768,
		CaptionMaxPixels:    50_000_000,
		Retries:             2,
		Backoff:             500 * time.Millisecond,
		MaxBackoff:          8 * time.Second,
		UnreachableCooldown: 30 * time.Second,
		DecideTemperature:   &dt,
		WriteTemperature:    &wt,
		DecideMaxTokens:     512,
		WriteMaxTokens:      1024,
		NumCtx:              8192,
		APIKey:              "sk-no-key-required",
		GradeChunkChars:     1200,
		GradeMaxChunks:      8,
		HistoryTurns:        3,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Writer.IsZero() {
		c.Writer = c.Router
	}
	setInt(&c.EmbedBatch, d.EmbedBatch)
	setDur(&c.Timeout, d.Timeout)
	setDur(&c.WriteTimeout, d.WriteTimeout)
	setDur(&c.EmbedTimeout, d.EmbedTimeout)
	setDur(&c.CaptionTimeout, d.CaptionTimeout)
	setInt(&c.CaptionMaxSide, d.CaptionMaxSide)
	setInt(&c.CaptionMaxPixels, d.CaptionMaxPixels)
	if c.Retries == 0 {
		c.Retries = d.Retries
	} else if c.Retries < 0 {
		c.Retries = 0
	}
	setDur(&c.Backoff, d.Backoff)
	setDur(&c.MaxBackoff, d.MaxBackoff)
	if c.UnreachableCooldown == 0 {
		c.UnreachableCooldown = d.UnreachableCooldown
	}
	if c.DecideTemperature == nil {
		c.DecideTemperature = d.DecideTemperature
	}
	if c.WriteTemperature == nil {
		c.WriteTemperature = d.WriteTemperature
	}
	setInt(&c.DecideMaxTokens, d.DecideMaxTokens)
	setInt(&c.WriteMaxTokens, d.WriteMaxTokens)
	setInt(&c.NumCtx, d.NumCtx)
	if c.APIKey == "" {
		c.APIKey = d.APIKey
	}
	setInt(&c.GradeChunkChars, d.GradeChunkChars)
	setInt(&c.GradeMaxChunks, d.GradeMaxChunks)
	setInt(&c.HistoryTurns, d.HistoryTurns)
	return c
}

func setInt(p *int, d int) {
	if *p <= 0 {
		*p = d
	}
}

func setDur(p *time.Duration, d time.Duration) {
	if *p <= 0 {
		*p = d
	}
}
