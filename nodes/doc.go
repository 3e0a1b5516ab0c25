// Package nodes is graphrag's RAG graph: the State that flows through it, the
// five nodes (route, retrieve, evaluate, generate, validate), the routers on
// its conditional edges, and the retry budgets that bound every loop.
//
// Every node has a deterministic implementation that needs no language
// model, and that is also the fallback when a model fails:
//
//   - route: a short list of guarantees (arithmetic and unit conversion →
//     direct, exact identifiers, dotted Go names and file names → hybrid;
//     identifiers such as INV-2024-0117, dates, phone numbers and IBANs are
//     never read as arithmetic), then a learned router: multinomial logistic
//     regression over hashed words, stems, bigrams and character 4-grams,
//     trained offline on CLINC150, NL2Bash and graphrag's exemplars under the
//     policy in routerdata/policy.json (go generate ./nodes writes
//     routerdata/model.bin; nothing is trained at start-up), with calibrated
//     confidence. Plan.Kind records what it took the request for; a request
//     to act is answered that graphrag only reads. Cues keep personal
//     references local and send time-sensitive questions to the web when it
//     is configured (never to a disabled web search). A corpus probe, a
//     small keyword search (through the store's Probe when it has one,
//     skipped when no evidence could change the route) whose evidence is
//     measured from the hit text (weighted
//     coverage of the question's content words, names and rare words
//     weighing most; title match), so it means the same on every store. A
//     question with no local evidence goes to the web or a model when one is
//     configured, otherwise stays local and says what would help; strong
//     evidence keeps it local whatever the classifier says, and a
//     filesystem guess without a cue about files as objects (a count, a
//     listing, a size, a date, a folder, a name) yields to it; "how do I"
//     questions are about content. A general-knowledge question sent to
//     the direct route with no model to answer it, and a request to act,
//     come back from validate to be searched in the files (State.Alone
//     keeps the direct answer, given when the files do not answer either).
//     It also
//     extracts keywords, a file-type filter, a source hint and a time
//     window, and resolves follow-up questions against the history.
//   - retrieve: vector, hybrid (keyword when the store has no embedder),
//     the filesystem tools or web search, honouring the plan's filters.
//     When Deps.Tools is also a FileSelector, a local search with a type,
//     time or source filter runs over the files the tools select. It is a
//     subgraph: select ⇒ keyword | vector | search | web | files → fuse.
//     When the Searcher is a LegSearcher (the SQLite store with an
//     embedder) the keyword and vector lists of a hybrid search run as
//     parallel branches and fuse joins them by reciprocal rank fusion,
//     exactly the store's own hybrid result; other searches are one
//     branch. When the Planner proposes other wordings of the question
//     (Plan.Queries; the deterministic router proposes none), each
//     wording runs its own branches too (multi-query retrieval, at most
//     Options.MaxQueries texts) and fuse joins every list by reciprocal
//     rank fusion, the question's lists first; the "queries" event
//     (EventQueries) names what was searched. A corrective loop's
//     refined query is searched alone. Asked which release of a package
//     is installed, or who maintains it, fuse adds the first passage of
//     its changelog, the newest release, when the Searcher also reads
//     documents' first passages (Openings; both stores do). With
//     Options.ConfirmWeb the web branch pauses the run before the
//     question leaves the machine (graph.Interrupt with a
//     WebConfirmation); resumed with false, it searches the local files.
//   - evaluate: corrective RAG. Keeps hits above a share of the top score
//     (per scoring: BM25/cosine or RRF), judges retrieval good, poor or
//     empty from the evidence, refines poor retrieval by pseudo-relevance
//     feedback (fusing each refined search with the earlier one by RRF) and
//     abstains with NoAnswer rather than answer from passages that do not
//     match.
//   - generate: an extractive answer, the sentences that best cover the
//     question, each cited [n] (headings are context, not answers; each
//     part of a multi-part question, a time, a place, an amount, steps...,
//     gets a sentence); plus a heuristic short answer (State.Short).
//   - validate: a self-check (Check): the answer's numbers, names, dates
//     and quoted strings must be in the passages it cites and its other
//     content words (by stem) mostly so, and it must be the kind of answer
//     the question asks for (a name, a number, a date, yes or no, one of
//     the options); not how many of the question's words it repeats. An
//     unsupported answer goes back to generate within the budget, then the
//     run answers extractively from the kept passages and says so; an
//     answer the judge finds off the question goes back to route.
//
// The two conditional edges are pure functions of the state
// (afterEvaluate, afterValidate): nodes measure, edges decide.
//
// When a Planner, Grader, Rewriter, Writer or Judge is set in Deps, the node
// asks it (the Planner only when the classifier is unsure, the Judge only
// when the self-check is ambiguous: support near the threshold, an answer
// of the wrong kind, or a yes/no or either/or answer, which no passage
// states word for word) and falls back to the deterministic
// path when it fails; every fallback is recorded in State.Notes, emitted as
// the custom graph event EventFallback ("fallback"), and every model call
// counted in State.Usage. After a call fails with an error matching
// graphrag.ErrUnavailable (an unreachable model server) the run makes no
// more model calls and notes once that it finished extractively.
//
// Build wires the nodes into a graph.Runnable[State] (compile options such
// as graph.WithCheckpointer make its runs durable; State is checkpointed as
// JSON, StateVersion, with the nodes' own bookkeeping):
//
//	route → retrieve → evaluate ─good/empty→ generate → validate ─ok→ END
//	  ↑                   │poor (≤ Budget.Retrieve)     ↑   │unsupported (≤ Budget.Generate)
//	  └───────────────────┘                            └───┘
//	  ↑                                                     │off question (≤ Budget.Route)
//	  └─────────────────────────────────────────────────────┘
//
// The thresholds in DefaultOptions were tuned on ../shared/evaldata (dev
// split) and are measured by this package's tests (go test -v -run
// 'Dev|Extra' ./nodes): on the SQLite store holding rag_corpus.jsonl, coarse
// routing accuracy on the hard rows plus the 200 dev questions 0.986,
// recall@10 0.95, MRR 0.92, abstention on the negatives 0.94 with false
// abstention 0.04; coarse routing 0.95 on evals/datasets/routing.extra.jsonl,
// which the router never trains on.
package nodes
