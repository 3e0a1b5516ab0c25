package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// Caps on what is read from a zip container (docx, odt, epub): a small
// file may decompress to far more, so each part read and the whole are
// bounded, and a container with more entries than any real document is
// refused.
const (
	maxPartSize       = 32 << 20 // one XML part, decompressed
	maxContainerBytes = 64 << 20 // all parts read from one file, decompressed
	maxZipEntries     = 20000
)

var errContainerTooLarge = errors.New("decompressed content over the limit")

// zipReader opens a container and reads its parts under the caps.
type zipReader struct {
	z    *zip.Reader
	read int64
}

func openZip(data []byte) (*zipReader, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	if len(z.File) > maxZipEntries {
		return nil, fmt.Errorf("zip: %d entries, more than %d", len(z.File), maxZipEntries)
	}
	return &zipReader{z: z}, nil
}

// part returns the decompressed content of the named entry.
func (r *zipReader) part(name string) ([]byte, error) {
	for _, f := range r.z.File {
		if f.Name != name {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer rc.Close()
		limit := min(int64(maxPartSize), maxContainerBytes-r.read)
		data, err := io.ReadAll(io.LimitReader(rc, limit+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if int64(len(data)) > limit {
			return nil, fmt.Errorf("%s: %w", name, errContainerTooLarge)
		}
		r.read += int64(len(data))
		return data, nil
	}
	return nil, fmt.Errorf("%s: %w", name, errMissingPart)
}

var errMissingPart = errors.New("missing part")

// docText collects paragraphs and headings from an office document's XML.
type docText struct {
	lines []string
	heads []heading
}

func (d *docText) paragraph(text string, level int) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if len(d.lines) > 0 {
		d.lines = append(d.lines, "")
	}
	if level > 0 {
		d.heads = append(d.heads, heading{at: len(d.lines), level: level, title: collapse(text)})
	}
	d.lines = append(d.lines, text)
}

func (d *docText) loaded(title string) Loaded {
	return Loaded{Title: title, Text: strings.Join(d.lines, "\n"), Sections: unknownLines(headingSections(d.lines, d.heads, nil))}
}

// unknownLines clears the line numbers of sections whose lines are not
// the file's (text taken out of XML parts).
func unknownLines(secs []Section) []Section {
	for i := range secs {
		secs[i].StartLine, secs[i].Lines = 0, nil
	}
	return secs
}

// loadDocx reads a Word document's paragraphs (word/document.xml);
// paragraphs styled HeadingN or Title are headings.
func loadDocx(ctx context.Context, _ string, data []byte) (Loaded, error) {
	z, err := openZip(data)
	if err != nil {
		return Loaded{}, fmt.Errorf("docx: %w", err)
	}
	body, err := z.part("word/document.xml")
	if err != nil {
		return Loaded{}, fmt.Errorf("docx: %w", err)
	}
	var d docText
	var para strings.Builder
	level, inText := 0, false
	err = eachXMLToken(ctx, "docx", body, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "p":
				para.Reset()
				level = 0
			case "pStyle":
				level = headingStyle(attr(t, "val"))
			case "t":
				inText = true
			case "tab":
				para.WriteByte('\t')
			case "br", "cr":
				para.WriteByte('\n')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				d.paragraph(para.String(), level)
				para.Reset()
			}
		case xml.CharData:
			if inText {
				para.Write(t)
			}
		}
	})
	if err != nil {
		return Loaded{}, err
	}
	return d.loaded(""), nil
}

// headingStyle is the level of a Word paragraph style ("Heading2" -> 2,
// "Title" -> 1), 0 for other styles.
func headingStyle(s string) int {
	l := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	if l == "title" {
		return 1
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(l, "heading")); err == nil && strings.HasPrefix(l, "heading") && n >= 1 && n <= 9 {
		return n
	}
	return 0
}

// eachXMLToken calls fn with each token of the XML document body, checking
// ctx before each; a malformed document is an error naming the format. A
// token's bytes are the decoder's until the next one: fn copies what it
// keeps.
func eachXMLToken(ctx context.Context, format string, body []byte, fn func(xml.Token)) error {
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", format, err)
		}
		fn(tok)
	}
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// loadODT reads an OpenDocument text's paragraphs and headings
// (content.xml).
func loadODT(ctx context.Context, _ string, data []byte) (Loaded, error) {
	z, err := openZip(data)
	if err != nil {
		return Loaded{}, fmt.Errorf("odt: %w", err)
	}
	body, err := z.part("content.xml")
	if err != nil {
		return Loaded{}, fmt.Errorf("odt: %w", err)
	}
	var d docText
	var para strings.Builder
	depth, level := 0, 0 // depth of open text:p / text:h
	err = eachXMLToken(ctx, "odt", body, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "p", "h":
				if depth == 0 {
					para.Reset()
					level = 0
					if t.Name.Local == "h" {
						level, _ = strconv.Atoi(attr(t, "outline-level"))
						level = max(level, 1)
					}
				}
				depth++
			case "s":
				n, _ := strconv.Atoi(attr(t, "c"))
				para.WriteString(strings.Repeat(" ", max(n, 1)))
			case "tab":
				para.WriteByte('\t')
			case "line-break":
				para.WriteByte('\n')
			}
		case xml.EndElement:
			if t.Name.Local == "p" || t.Name.Local == "h" {
				depth--
				if depth == 0 {
					d.paragraph(para.String(), level)
				}
			}
		case xml.CharData:
			if depth > 0 {
				para.Write(t)
			}
		}
	})
	if err != nil {
		return Loaded{}, err
	}
	return d.loaded(""), nil
}

// loadEPUB reads an EPUB book's XHTML documents in reading order (the
// package's spine), cut at their headings; the title is the book's.
func loadEPUB(ctx context.Context, _ string, data []byte) (Loaded, error) {
	z, err := openZip(data)
	if err != nil {
		return Loaded{}, fmt.Errorf("epub: %w", err)
	}
	cont, err := z.part("META-INF/container.xml")
	if err != nil {
		return Loaded{}, fmt.Errorf("epub: %w", err)
	}
	var c struct {
		Rootfiles []struct {
			FullPath string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := xml.Unmarshal(cont, &c); err != nil || len(c.Rootfiles) == 0 {
		return Loaded{}, fmt.Errorf("epub: container.xml names no package document (%v)", err)
	}
	opfPath := c.Rootfiles[0].FullPath
	opfData, err := z.part(opfPath)
	if err != nil {
		return Loaded{}, fmt.Errorf("epub: %w", err)
	}
	var opf struct {
		Title []string `xml:"metadata>title"`
		Items []struct {
			ID   string `xml:"id,attr"`
			Href string `xml:"href,attr"`
		} `xml:"manifest>item"`
		Spine []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"spine>itemref"`
	}
	if err := xml.Unmarshal(opfData, &opf); err != nil {
		return Loaded{}, fmt.Errorf("epub: %s: %w", opfPath, err)
	}
	href := map[string]string{}
	for _, it := range opf.Items {
		href[it.ID] = it.Href
	}
	var secs []Section
	var texts []string
	for _, ref := range opf.Spine {
		if err := ctx.Err(); err != nil {
			return Loaded{}, err
		}
		h, ok := href[ref.IDRef]
		if !ok {
			continue
		}
		part, err := z.part(path.Join(path.Dir(opfPath), h))
		if errors.Is(err, errContainerTooLarge) {
			return Loaded{}, fmt.Errorf("epub: %w", err)
		}
		if err != nil {
			continue // a spine entry that is missing: read the rest
		}
		p := parseHTML(strings.ToValidUTF8(string(part), "\uFFFD"))
		if len(p.lines) == 0 {
			continue
		}
		texts = append(texts, strings.Join(p.lines, "\n"))
		secs = append(secs, unknownLines(headingSections(p.lines, p.heads, nil))...)
	}
	title := ""
	if len(opf.Title) > 0 {
		title = collapse(opf.Title[0])
	}
	return Loaded{Title: title, Text: strings.Join(texts, "\n\n"), Sections: secs}, nil
}
