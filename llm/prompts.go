package llm

import (
	"fmt"
	"strings"

	"github.com/graphrag/graphrag"
)

// Prompts are adapted from the original designs (the planner and
// map/reduce prompts of the sequential pipeline, the grader and validator
// of the five-node design) and kept short and explicit: small models
// follow one instruction per line, an example, and "JSON:" at the end.

const systemDecide = "You are a careful assistant inside a search tool over the user's own files. Reply with JSON only, no prose."

const systemWrite = "You answer questions using only the user's files. Be brief and exact. Cite sources as [n]."

func planPrompt(query string, history []graphrag.Turn) string {
	var b strings.Builder
	if len(history) > 0 {
		b.WriteString("Conversation so far:\n")
		writeHistory(&b, history)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Question: %s\n\n", query)
	b.WriteString(`Choose "route":
- vector: answered by the meaning of the user's documents
- hybrid: names exact things to find in the documents (ids, codes, numbers, names, quoted words)
- filesystem: about the files themselves (count, list, newest, size, folders)
- web: needs news or facts from outside the user's files
- direct: greetings, arithmetic or general knowledge, no search needed
Also give:
- "query": the question rewritten to stand alone (replace "it", "that", "they" with what they mean)
- "queries": 0-3 other short ways to search for it (other words the documents may use), else []
- "keywords": 2-4 search terms
- "file_types": file types asked for, like ["pdf"], else []
- "source_hint": part of a file name the user names, else ""
- "time": "today", "this_week", "this_month" or "any"
Example: {"route": "hybrid", "query": "total of invoice INV-2041", "queries": ["amount due on INV-2041"], "keywords": ["invoice", "INV-2041", "total"], "file_types": ["pdf"], "source_hint": "", "time": "any"}
JSON:`)
	return b.String()
}

func gradePrompt(query string, hits []graphrag.Hit, maxChars int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nNumbered excerpts from the user's files:\n", query)
	for i, h := range hits {
		fmt.Fprintf(&b, "[%d] %s\n", i+1, excerpt(h, maxChars))
	}
	b.WriteString(`
Which excerpts help answer the question? From each one that helps, copy the specific facts that answer it (names, dates, numbers, file names), in the excerpt's own words. Do not add anything the excerpts do not say.
Reply {"relevant": [excerpt numbers, most useful first], "facts": [{"chunk": excerpt number, "text": "fact"}]}. If none help: {"relevant": [], "facts": []}
JSON:`)
	return b.String()
}

func rewritePrompt(query string, hits []graphrag.Hit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A search of the user's files for this question found nothing useful.\nQuestion: %s\n", query)
	if len(hits) > 0 {
		b.WriteString("It found (not useful):\n")
		for i, h := range hits {
			if i == 3 {
				break
			}
			fmt.Fprintf(&b, "- %s\n", clip(oneLine(h.Chunk.Text), 120))
		}
	}
	b.WriteString(`Write one better search query: the words the documents likely use, synonyms, full names; no filler words. Keep every name, number and id from the question.
Reply {"query": "..."}
JSON:`)
	return b.String()
}

func writePrompt(req graphrag.WriteRequest, maxChars, historyTurns int) string {
	var b strings.Builder
	if h := lastTurns(req.History, historyTurns); len(h) > 0 {
		b.WriteString("Conversation so far:\n")
		writeHistory(&b, h)
		b.WriteString("\n")
	}
	if len(req.Facts) > 0 {
		b.WriteString("Facts from the user's files (the number is the source):\n")
		for _, f := range req.Facts {
			if f.Hit >= 0 && f.Hit < len(req.Hits) {
				fmt.Fprintf(&b, "[%d] %s\n", f.Hit+1, oneLine(f.Text))
			} else {
				fmt.Fprintf(&b, "- %s\n", oneLine(f.Text)) // a tool's result, tied to no one hit
			}
		}
		fmt.Fprintf(&b, "\nQuestion: %s\n\nUsing ONLY these facts, write a short answer.", req.Query)
	} else {
		b.WriteString("Numbered excerpts from the user's files:\n")
		for i, h := range req.Hits {
			fmt.Fprintf(&b, "[%d] %s\n", i+1, excerpt(h, maxChars))
		}
		fmt.Fprintf(&b, "\nQuestion: %s\n\nUsing ONLY these excerpts, write a short answer.", req.Query)
	}
	b.WriteString(" Put the source number after each sentence, like [1]. If they do not answer the question, reply exactly: " + NoAnswer + "\n\nAnswer:")
	return b.String()
}

// NoAnswer is what the writer is told to say when the sources do not answer.
const NoAnswer = "No relevant information found."

func judgePrompt(query string, answer string, hits []graphrag.Hit, maxChars int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nSources:\n", query)
	for i, h := range hits {
		fmt.Fprintf(&b, "[%d] %s\n", i+1, excerpt(h, maxChars))
	}
	fmt.Fprintf(&b, "\nAnswer: %s\n\n", answer)
	b.WriteString(`Is every claim in the answer stated in the sources? Does the answer address the question?
Reply {"grounded": true or false, "answers_question": true or false, "reason": "a few words"}
JSON:`)
	return b.String()
}

func writeHistory(b *strings.Builder, turns []graphrag.Turn) {
	for _, t := range turns {
		fmt.Fprintf(b, "User: %s\nAssistant: %s\n", clip(oneLine(t.Query), 200), clip(oneLine(t.Answer), 300))
	}
}

func lastTurns(h []graphrag.Turn, n int) []graphrag.Turn {
	if len(h) > n {
		return h[len(h)-n:]
	}
	return h
}

// excerpt is a hit as a prompt line: its file name and capped text.
func excerpt(h graphrag.Hit, maxChars int) string {
	name := h.Source.Title
	if name == "" {
		name = h.Source.Path
	}
	if name == "" {
		name = h.Source.URL
	}
	text := clip(oneLine(h.Chunk.Text), maxChars)
	if name == "" {
		return text
	}
	return "(" + name + ") " + text
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
