package nodes

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/graphrag/graphrag"
)

// This file finds the stanza of a Debian copyright file (DEP-5) that a
// question about a part of a work asks about: "who holds the copyright on
// the Debian packaging of zorp" is answered by the stanza of "Files:
// debian/*", "what licence covers zorp's frob plugins" by that of "Files:
// plugins/frob/*". Every stanza names the same package by its path, and
// the header's, which also holds the work's name, matches the question
// best; the stanza asked about holds few of its words.

// packagingAsked reports whether a question asks about the Debian
// packaging of a work: among its words (stanzaFileWords) "packaging", or
// a path in debian/.
func packagingAsked(query string, words []string) bool {
	return slices.Contains(words, "packaging") || strings.Contains(strings.ToLower(query), "debian/")
}

// stanzaFiles are the patterns of the Files fields of a chunk of a
// copyright file: its heading's, when the chunk begins inside a stanza,
// and each "Files:" line's.
func stanzaFiles(h graphrag.Hit) [][]string {
	var out [][]string
	if strings.HasPrefix(strings.ToLower(h.Chunk.Heading), "files:") {
		out = append(out, filesPatterns(h.Chunk.Heading))
	}
	for _, l := range strings.Split(h.Chunk.Text, "\n") {
		if strings.HasPrefix(strings.ToLower(l), "files:") {
			out = append(out, filesPatterns(l))
		}
	}
	return out
}

// isCopyrightStanza reports whether h is a chunk of a DEP-5 copyright file.
func isCopyrightStanza(h graphrag.Hit) bool {
	return h.Chunk.Kind == kindFields && path.Base(h.Source.Path) == "copyright"
}

// stanzaAsked reports whether a chunk of a copyright file holds the
// stanza of a part the question names (words are its stanzaFileWords):
// the packaging's own ("debian/*", not "debian/patches/*") when it asks
// about the packaging; a part's whose Files field names a file or a
// folder it names (partFiles).
func stanzaAsked(h graphrag.Hit, packaging bool, words []string) bool {
	return slices.ContainsFunc(stanzaFiles(h), func(p []string) bool {
		switch filesScope(p) {
		case stanzaPackaging:
			return packaging && slices.Contains(p, "debian/*")
		case stanzaPart:
			return partFiles(p, h.Source.Path, words, packageWords(h.Source.Path, words)) > 0
		}
		return false
	})
}

// maxFilesDepth is partFiles' measure of a Files field that names a file
// the question names: closer than any run of folders.
const maxFilesDepth = 1 << 10

// partFiles is how closely the patterns of a part's stanza in the
// copyright file at file name what the question names: maxFilesDepth for
// a file it names by its name (filesNamed), else the folders of the one
// pattern that it names most of ("src/frob/json/*" three for
// "src/frob/json", "src/frob/*" two), 0 for none. A folder counts only
// when the question names the package the file is of by another word
// (pkg are the words that name it: packageWords),
// and not the folder named like the package ("the frob plugins of
// zorp" names "plugins/frob/*" of zorp/copyright; "zorp" is not the part
// "src/libzorp/*"): the folder of another package's vendored copy
// ("thirdparty/zorp/*") names the package asked about, not a part of it.
// Not "debian", which a question about any Debian package may write.
func partFiles(patterns []string, file string, words, pkg []string) int {
	if filesNamed(patterns, words) {
		return maxFilesDepth
	}
	if len(pkg) == 0 {
		return 0
	}
	folder := strings.ToLower(path.Base(path.Dir(file)))
	most := 0
	for _, p := range patterns {
		n := 0
		for _, f := range strings.Split(path.Dir(strings.ToLower(p)), "/") {
			if f != "." && f != "debian" && !strings.ContainsAny(f, "*?[") && !strings.Contains(folder, f) &&
				slices.Contains(words, f) && !slices.Contains(pkg, f) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// packageWords are the words that name the package a file is of: by its
// folder ("zorp" of "libzorp2/copyright"), not by the file's own name.
func packageWords(file string, words []string) []string {
	var out []string
	for _, w := range words {
		if pathNamed(path.Dir(file), map[string]bool{w: true}) || inPackagedFolder(file, w) {
			out = append(out, w)
		}
	}
	return out
}

// withAskedStanza is the kept hits and, when a question about who made a
// work or its licence names a part of it (stanzaAsked) and a kept passage
// is of a copyright file, the best passage of the kept copyright files
// that holds the stanza of that part and is not kept. Of the files whose
// path the question names, when any is.
func (p *pipeline) withAskedStanza(ctx context.Context, s *State) []graphrag.Hit {
	q := s.question()
	if !asksAuthor(q) && !asksLicence(q) {
		return s.Kept
	}
	words := stanzaFileWords.FindAllString(strings.ToLower(q), -1)
	packaging := packagingAsked(q, words)
	ofNamed := func(h graphrag.Hit) bool { return len(packageWords(h.Source.Path, words)) > 0 }
	docs := isCopyrightStanza
	if slices.ContainsFunc(s.Kept, func(h graphrag.Hit) bool { return isCopyrightStanza(h) && ofNamed(h) }) {
		docs = func(h graphrag.Hit) bool { return isCopyrightStanza(h) && ofNamed(h) }
	}
	return p.withKeptDocumentHit(ctx, s, docs, func(h graphrag.Hit) bool { return stanzaAsked(h, packaging, words) }, "the stanza asked about")
}
