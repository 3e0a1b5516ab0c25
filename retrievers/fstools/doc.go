// Package fstools answers questions about the files themselves — how many,
// which are newest or largest, what is called what, how big a folder is —
// with plain Go (no shell), sandboxed to the paths that were ingested (a file given alone is seen alone).
//
// New takes the roots; every tool (Count, List, Find, Stat, Tree,
// FolderSizes, UsageByType) walks only inside them. A path with a ".."
// component, an absolute path outside the roots and a symbolic link whose
// target leaves the roots are refused with an error matching ErrOutsideRoots.
// Walks do not descend into symlinked directories (no loops, no double
// counting), skip hidden files and directories unless Options.IncludeHidden,
// stop after Options.MaxFiles entries (the result says it was truncated) and
// check the context as they go. Unreadable directories and broken links are
// skipped and reported in the result, never fatal.
//
// Every tool honours a Filter: file types (lower-case extensions, or
// synonyms such as "pdfs", "images", "documents", "spreadsheets", "code"),
// the time windows today / this week / this month from graphrag.TimeWindow
// (on the injectable clock Options.Now), explicit Since/Until bounds, a size
// range, a name pattern and a source hint.
//
// Tools.Answer satisfies the RAG graph's FileTools interface: it picks a
// tool from the plan with deterministic rules, formats a short answer, and
// returns the files as hits whose DocID is the absolute cleaned path (the id
// ingest gives file documents). Tools.Select returns the paths a plan's
// type, time and source filters select, to narrow a search to them
// ("what do my PDFs from this week say about X"). The hits of an answer are
// the files (or folders) its text names, never every file a walk counted.
//
// Options.Index, optional, is the store the roots were ingested into (both
// stores satisfy Index). With it a count says how many of the counted files
// are not indexed, and why when the store's record accounts for them;
// "how many files mention X" counts the documents whose indexed text holds
// X, by the store's keyword search (ToolMentions); and, when the index is
// also a StoreReporter, questions about the store itself — "when did I last
// ingest", "how big is my index" — are answered from its record
// (ToolStore). AboutStore tells such questions, so a router can send them
// here.
package fstools
