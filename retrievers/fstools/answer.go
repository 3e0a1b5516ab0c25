package fstools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/graphrag/graphrag"
)

// Answer runs the tool the plan asks for (see Interpret) and returns a
// short formatted answer and the files it is about, as hits best first:
// DocID and Path are the absolute cleaned path, Type the extension, Chunk.Text
// a one-line description of the file, Score 1/rank. For FolderSizes and Tree
// the hits are folders (Source.Type "dir"); for UsageByType, the largest
// file of each type listed. An empty result is an answer ("No PDF files
// were modified today."), not an error, and so is a refused path ("… is
// outside the folders graphrag can see …", no hits): errors are for
// cancelled contexts, unreadable roots and bad filters. Run returns the
// refusal as an error matching ErrOutsideRoots.
func (t *Tools) Answer(ctx context.Context, plan graphrag.Plan) (string, []graphrag.Hit, error) {
	in := t.Interpret(plan)
	text, hits, err := t.Run(ctx, in)
	if errors.Is(err, ErrOutsideRoots) {
		// A refusal is the answer to the question, not a failed run.
		return t.refusal(err), nil, nil
	}
	var pe *fs.PathError
	if errors.Is(err, graphrag.ErrNotFound) && errors.As(err, &pe) {
		return fmt.Sprintf("%s was not found in the ingested directories (%s).", DisplayName(pe.Path), t.rootList()), nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("fstools: %s: %w", in.Tool, err)
	}
	return text, hits, nil
}

// refusal says in words why a path was refused.
func (t *Tools) refusal(err error) string {
	what := "That path"
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != "" {
		what = DisplayName(pe.Path)
	}
	return fmt.Sprintf("%s is outside the folders graphrag can see, so it was not looked at: only files in the ingested directories (%s) are available, and paths may not use \"..\" or links that lead elsewhere.",
		what, t.rootList())
}

// Run carries out an Intent (from Interpret, or built by hand).
func (t *Tools) Run(ctx context.Context, in Intent) (string, []graphrag.Hit, error) {
	m, err := t.compile(in.Filter)
	if err != nil {
		return "", nil, err
	}
	scope := m.describe()
	limit := in.Limit
	if limit <= 0 {
		limit = t.opts.Limit
	}
	loc := t.opts.Now().Location()
	var b strings.Builder
	var hits []graphrag.Hit
	var w Walk
	switch in.Tool {
	case ToolCount:
		res, err := t.countNewest(ctx, m)
		if err != nil {
			return "", nil, err
		}
		w = res.Walk
		total, named := res.Total, res.Files
		fmt.Fprintf(&b, "%s%s (%s in all).", capitalize(plural(total, "file", "files")), scopeSuffix(scope), HumanSize(res.Bytes))
		if note := t.indexedNote(ctx, res, scope); note != "" {
			b.WriteString(" " + note)
		}
		if total > 0 {
			names := make([]string, len(named))
			for i, f := range named {
				names[i] = DisplayName(f.Rel)
			}
			if total > len(named) {
				fmt.Fprintf(&b, " Newest: %s, …", strings.Join(names, ", "))
			} else {
				fmt.Fprintf(&b, " They are: %s.", strings.Join(names, ", "))
			}
		}
		// The sources are the files the answer names, not every file counted.
		hits = fileHits(named, loc)
	case ToolMentions:
		text, mh, err := t.runMentions(ctx, in, scope)
		if err != nil {
			return "", nil, err
		}
		b.WriteString(text)
		hits = mh
	case ToolStore:
		text, sh, err := t.runStore(ctx, loc)
		if err != nil {
			return "", nil, err
		}
		b.WriteString(text)
		hits = sh
	case ToolList, ToolFind:
		req := ListRequest{Filter: in.Filter, SortBy: in.SortBy, Limit: limit}
		if in.Reverse {
			req.Asc, req.Desc = req.SortBy != ByName, req.SortBy == ByName
		}
		res, err := t.List(ctx, req)
		if err != nil {
			return "", nil, err
		}
		w = res.Walk
		if res.Total == 0 {
			fmt.Fprintf(&b, "No files%s.", scopeSuffix(scope))
			break
		}
		fmt.Fprintf(&b, "%s%s, %s:\n", listHeading(req, len(res.Files), res.Total), scopeSuffix(scope), orderWords(req))
		for i, f := range res.Files {
			fmt.Fprintf(&b, "%d. %s\n", i+1, describeFile(f, loc))
		}
		hits = fileHits(res.Files, loc)
	case ToolStat:
		infos, err := t.statTarget(ctx, in.Target, in.Filter)
		if err != nil {
			if errors.Is(err, graphrag.ErrNotFound) {
				fmt.Fprintf(&b, "No file named %s in the ingested directories.", DisplayName(in.Target))
				break
			}
			return "", nil, err
		}
		var files []File
		for i, info := range infos {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(describeInfo(info, loc))
			files = append(files, info.File)
		}
		if len(infos) > 1 {
			b.WriteString(fmt.Sprintf("\n(%d files match %s.)", len(infos), DisplayName(in.Target)))
		}
		hits = fileHits(files, loc)
	case ToolTree:
		res, err := t.Tree(ctx, TreeRequest{Filter: in.Filter, Dir: in.Dir, MaxChildren: max(limit, DefaultMaxChildren)})
		if err != nil {
			return "", nil, err
		}
		w = res.Walk
		if scope != "" {
			fmt.Fprintf(&b, "Folders with files%s:\n", scopeSuffix(scope))
		}
		for _, tr := range res.Trees {
			b.WriteString(tr.String())
			for _, c := range tr.Children {
				if c.Dir {
					hits = append(hits, dirHit(c.Path, c.Rel, c.Files, c.Bytes))
				}
			}
		}
	case ToolFolderSizes:
		res, err := t.FolderSizes(ctx, FolderRequest{Filter: in.Filter, Dir: in.Dir, SortBy: in.SortBy, Limit: limit})
		if err != nil {
			return "", nil, err
		}
		w = res.Walk
		if len(res.Folders) == 0 {
			fmt.Fprintf(&b, "No folders with files%s; %s, %s in all.", scopeSuffix(scope), plural(res.Files, "file", "files"), HumanSize(res.Bytes))
			break
		}
		order := "by size"
		if in.SortBy == ByFiles {
			order = "by number of files"
		}
		fmt.Fprintf(&b, "Folders %s (%d of %d shown)%s — %s, %s in all:\n", order, len(res.Folders), res.Total, scopeSuffix(scope), plural(res.Files, "file", "files"), HumanSize(res.Bytes))
		for i, f := range res.Folders {
			fmt.Fprintf(&b, "%d. %s/ — %s, %s\n", i+1, DisplayName(f.Rel), HumanSize(f.Bytes), plural(f.Files, "file", "files"))
			hits = append(hits, dirHit(f.Path, f.Rel, f.Files, f.Bytes))
		}
	case ToolUsageByType:
		var largest []File // each listed type's largest file, as hits
		res, err := t.UsageByType(ctx, in.Filter)
		if err != nil {
			return "", nil, err
		}
		w = res.Walk
		fmt.Fprintf(&b, "%s in %s%s", HumanSize(res.Bytes), plural(res.Files, "file", "files"), scopeSuffix(scope))
		if len(res.Types) == 0 {
			b.WriteString(".")
			break
		}
		b.WriteString(", by type:\n")
		for i, u := range res.Types {
			if i == limit {
				fmt.Fprintf(&b, "… and %d more types\n", len(res.Types)-limit)
				break
			}
			name := u.Type
			if name == "" {
				name = "(no extension)"
			}
			share := 0.0
			if res.Bytes > 0 {
				share = 100 * float64(u.Bytes) / float64(res.Bytes)
			}
			fmt.Fprintf(&b, "- %s: %s (%.0f%%), %s (largest: %s)\n", name, HumanSize(u.Bytes), share, plural(u.Files, "file", "files"), DisplayName(u.Largest.Rel))
			largest = append(largest, u.Largest)
		}
		hits = fileHits(largest, loc)
	default:
		return "", nil, fmt.Errorf("%w: unknown tool %q", errInvalid, in.Tool)
	}
	text := strings.TrimRight(b.String(), "\n")
	if note := t.walkNote(w); note != "" {
		text += "\n" + note
	}
	for i := range hits {
		hits[i].Score = 1 / float64(i+1)
	}
	return text, hits, nil
}

// statTarget stats a path, or else the files whose name is the target
// (exact name first, then names containing it), at most five.
func (t *Tools) statTarget(ctx context.Context, target string, f Filter) ([]Info, error) {
	info, err := t.Stat(ctx, target)
	if err == nil {
		return []Info{info}, nil
	}
	if errors.Is(err, ErrOutsideRoots) || !errors.Is(err, graphrag.ErrNotFound) {
		return nil, err
	}
	base := target[strings.LastIndexAny(target, `/\`)+1:]
	f.Name = ""
	f.Source = ""
	res, ferr := t.Find(ctx, escapeGlob(base), f, 100)
	if ferr != nil {
		return nil, ferr
	}
	var exact, partial []File
	for _, file := range res.Files {
		if strings.EqualFold(file.Name, base) {
			exact = append(exact, file)
		} else {
			partial = append(partial, file)
		}
	}
	files := exact
	if len(files) == 0 {
		files = partial
	}
	if len(files) == 0 {
		return nil, err
	}
	var infos []Info
	for _, file := range files[:min(len(files), 5)] {
		info, err := t.Stat(ctx, file.Path)
		if err != nil {
			continue
		}
		infos = append(infos, info)
	}
	if len(infos) == 0 {
		return nil, err
	}
	return infos, nil
}

// escapeGlob makes a name match literally; names without glob characters
// are substrings already.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, "*?[") {
		return s
	}
	r := strings.NewReplacer(`*`, `[*]`, `?`, `[?]`, `[`, `[[]`)
	return "*" + r.Replace(s) + "*"
}

// Select returns the absolute paths of the files the plan's FileTypes,
// Time and SourceHint select, newest first, at most 20×MaxHits — the DocIDs
// to narrow a search to for "what do my PDFs from this week say about X".
// A plan without any of those filters selects nothing to narrow by: Select
// returns nil and no error. Filters that match no file return an error
// wrapping graphrag.ErrNotFound that says what was looked for.
func (t *Tools) Select(ctx context.Context, plan graphrag.Plan) ([]string, error) {
	f := Filter{Types: plan.FileTypes, Window: plan.Time, Source: plan.SourceHint}
	if len(f.Types) == 0 && f.Window == graphrag.TimeAny && f.Source == "" {
		return nil, nil
	}
	res, err := t.List(ctx, ListRequest{Filter: f, SortBy: ByModified, Limit: 20 * t.opts.MaxHits})
	if err != nil {
		return nil, fmt.Errorf("fstools: select: %w", err)
	}
	if res.Total == 0 {
		m, _ := t.compile(f)
		return nil, fmt.Errorf("fstools: select: %w: no files%s in %s", graphrag.ErrNotFound, scopeSuffix(m.describe()), t.rootList())
	}
	out := make([]string, len(res.Files))
	for i, file := range res.Files {
		out[i] = file.Path
	}
	return out, nil
}

func fileHits(files []File, loc *time.Location) []graphrag.Hit {
	hits := make([]graphrag.Hit, 0, len(files))
	for _, f := range files {
		hits = append(hits, graphrag.Hit{
			Chunk:  graphrag.Chunk{ID: f.Path + "#fs", DocID: f.Path, Text: describeFile(f, loc)},
			Source: graphrag.Source{DocID: f.Path, Path: f.Path, Title: f.Name, Type: f.Type, ModTime: f.ModTime},
		})
	}
	return hits
}

func dirHit(p, rel string, files int, bytes int64) graphrag.Hit {
	text := fmt.Sprintf("folder %s/ holds %s, %s", DisplayName(rel), plural(files, "file", "files"), HumanSize(bytes))
	return graphrag.Hit{
		Chunk:  graphrag.Chunk{ID: p + "#fs", DocID: p, Text: text},
		Source: graphrag.Source{DocID: p, Path: p, Title: rel, Type: "dir"},
	}
}

func describeFile(f File, loc *time.Location) string {
	typ := f.Type
	if typ == "" {
		typ = "no extension"
	}
	s := fmt.Sprintf("%s — %s, %s, modified %s", DisplayName(f.Rel), HumanSize(f.Size), typ, formatTime(f.ModTime, loc))
	if f.Link {
		s += " (symbolic link)"
	}
	return s
}

func describeInfo(in Info, loc *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", DisplayName(in.Rel), in.Kind)
	switch in.Kind {
	case KindDir:
		fmt.Fprintf(&b, " holding %s (%s)", plural(in.Files, "file", "files"), HumanSize(in.Bytes))
	default:
		fmt.Fprintf(&b, ", %s (%d bytes)", HumanSize(in.Size), in.Size)
		if in.Type != "" {
			fmt.Fprintf(&b, ", type %s", in.Type)
		}
	}
	fmt.Fprintf(&b, ", modified %s", formatTime(in.ModTime, loc))
	if in.CreatedKnown {
		fmt.Fprintf(&b, ", created %s", formatTime(in.Created, loc))
	} else {
		b.WriteString(", created unknown (this filesystem does not record it)")
	}
	if in.Target != "" {
		fmt.Fprintf(&b, ", link to %s", DisplayName(in.Target))
	}
	fmt.Fprintf(&b, ", permissions %s", in.Mode.Perm()&fs.ModePerm)
	return b.String()
}

func listHeading(req ListRequest, shown, total int) string {
	if shown == total {
		return capitalize(plural(total, "file", "files"))
	}
	return fmt.Sprintf("%d of %d files", shown, total)
}

func orderWords(req ListRequest) string {
	switch req.SortBy {
	case BySize:
		if req.Asc {
			return "smallest first"
		}
		return "largest first"
	case ByName:
		if req.Desc {
			return "by name, Z to A"
		}
		return "by name"
	}
	if req.Asc {
		return "oldest first"
	}
	return "most recently modified first"
}

func scopeSuffix(scope string) string {
	if scope == "" {
		return ""
	}
	return " " + scope
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
