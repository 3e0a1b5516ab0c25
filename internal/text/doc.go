// Package text is graphrag's one place for reading words and sentences out
// of text: tokenising, stemming, stop words, sentence splitting and charset
// sniffing. The nodes of the RAG pipeline, both stores, the file tools, the
// LLM test oracle and ingestion all use it, so a word means the same thing
// wherever it is read.
//
// Where two callers need different behaviour on purpose, the package has
// two named functions or sets, each saying why:
//
//   - Tokenize reads words the way the pipeline grounds and scores them
//     (inner apostrophes, hyphens and version dots kept: "o'brien",
//     "1.2.3"); Words and FoldedWords split them the way the stores'
//     full-text indexes do (PostgreSQL's parser and SQLite FTS5's
//     unicode61), so a query word is a word the index holds.
//   - StopWords are dropped when grounding and scoring an answer (function
//     words and the words of a question's frame, "tell", "name");
//     QueryStopWords are dropped from a store's keyword query (function
//     words only: a frame word like "name" can be the topic, and BM25
//     already gives common words little weight).
//   - Sentences splits conservatively, for quoting and grounding: a wrong
//     cut splits a quoted sentence. ChunkSentences cuts at every sentence
//     end, for packing text into chunks: a wrong cut costs nothing there,
//     a missed one forces a cut mid-sentence.
//   - Stem is a light English suffix stripper for matching words;
//     LooseStem folds more inflections for matching a sentence with a
//     question; TrimPlural only drops a plural "s", so that its result is a
//     prefix of the word, for matching file names by substring.
//
// Every word list and tuned number lives in this package in one named,
// commented place saying where it came from.
package text
