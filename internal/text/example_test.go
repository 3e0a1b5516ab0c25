package text_test

import (
	"fmt"

	"github.com/graphrag/graphrag/internal/text"
)

func Example() {
	q := "Where are O'Brien's nightly backups stored in v2.1?"
	for _, t := range text.Tokenize(q) {
		if text.StopWords.Has(t.Lower) {
			continue
		}
		fmt.Printf("%s stem=%s capital=%v digit=%v\n", t.Lower, t.Stem, t.Capital, t.Digit)
	}
	// The same question as a SQLite keyword query: FTS5's words, function
	// words dropped.
	var query []string
	for _, w := range text.FoldedWords(q) {
		if !text.QueryStopWords.Has(w) {
			query = append(query, w)
		}
	}
	fmt.Println(query)
	// Output:
	// o'brien stem=o'brien capital=true digit=false
	// nightly stem=nightly capital=false digit=false
	// backups stem=backup capital=false digit=false
	// stored stem=stored capital=false digit=false
	// v2.1 stem=v2.1 capital=false digit=true
	// [o brien nightly backups stored v2 1]
}

func ExampleSentences() {
	for _, s := range text.Sentences("Dr. Smith runs the backup at 02:00. It goes to /srv/backup. see the log.") {
		fmt.Println(s)
	}
	// Output:
	// Dr. Smith runs the backup at 02:00.
	// It goes to /srv/backup. see the log.
}

func ExampleDecode() {
	s, ok := text.Decode([]byte("cr\xe8me br\xfbl\xe9e")) // Latin-1
	fmt.Println(s, ok)
	_, ok = text.Decode([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	fmt.Println(ok)
	// Output:
	// crème brûlée true
	// false
}
