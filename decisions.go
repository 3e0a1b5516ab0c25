package graphrag

// Usage counts language-model work. Deterministic deciders leave it zero.
type Usage struct {
	Calls            int
	PromptTokens     int
	CompletionTokens int
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Calls + v.Calls, u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens}
}

// Fact is a statement taken from one hit, the unit an answer is written from.
type Fact struct {
	Text string
	// Hit is the index of the hit the fact comes from, in the hits the
	// grader was given.
	Hit int
}

// Grading is the evaluate node's judgement of retrieved hits.
type Grading struct {
	// Relevant holds the indexes of the hits worth reading, best first.
	Relevant []int
	Facts    []Fact
	By       string
	Reason   string
	Usage    Usage
}

// WriteRequest is everything a writer may use to answer.
type WriteRequest struct {
	Query   string
	History []Turn
	// Hits are the kept hits, numbered [1..n] in this order for citations.
	Hits  []Hit
	Facts []Fact
}

// Judgement is a validator's verdict on an answer.
type Judgement struct {
	Verdict Verdict
	Reason  string
	By      string
	Usage   Usage
}
