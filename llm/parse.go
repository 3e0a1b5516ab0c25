package llm

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// The tolerant parser. Small local models, even under a JSON Schema
// constraint (which not every server honours), write JSON in many ways:
//
//	{"route": "web"}                       plain
//	```json\n{...}\n```                    fenced, often with prose around
//	Sure! Here is the plan: {...} Hope...  leading and trailing prose
//	{'route': 'web', 'keywords': ['a',],}  single quotes, trailing commas
//	{route: web}                           unquoted keys (and bare values)
//	<tool_call>{"name": "route", "arguments": {...}}</tool_call>
//	[TOOL_CALL] {...} [/TOOL_CALL]
//	route("web")   route(route="web", keywords=["a"])
//	<think>...</think>{...}                reasoning models
//	{"route": "web", "keywords": ["a"     truncated at the token limit
//
// candidates returns every JSON value the text may hold, most likely first.
// Each decision type then reads the fields it knows under their usual
// aliases, checks its enums, and falls back to a bare word or a regex for
// its key field.

var (
	thinkRe    = regexp.MustCompile(`(?s)<think>.*?(</think>|$)`)
	fenceRe    = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*(.*?)(```|$)")
	toolTagRe  = regexp.MustCompile(`(?s)<(?:tool_call|function_call|tools|json)>\s*(.*?)\s*(?:</(?:tool_call|function_call|tools|json)>|$)`)
	toolBrkRe  = regexp.MustCompile(`(?s)\[(?:TOOL_CALLS?|FUNCTION_CALL)\]\s*(.*?)\s*(?:\[/(?:TOOL_CALLS?|FUNCTION_CALL)\]|$)`)
	funcCallRe = regexp.MustCompile(`(?s)^\s*(?:<\|python_tag\|>)?\s*([A-Za-z_][\w.]*)\s*\((.*)\)\s*;?\s*$`)
	unquotedRe = regexp.MustCompile(`([{,]\s*)([A-Za-z_][\w\-]*)\s*:`)
	bareValRe  = regexp.MustCompile(`(:\s*)([A-Za-z_][\w\-]*)(\s*[,}\]])`)
	bareElemRe = regexp.MustCompile(`([\[,]\s*)([A-Za-z_][\w\-]*)(\s*[,\]])`)
)

// stripThink removes reasoning blocks (<think>...</think>) that reasoning
// models put before their answer.
func stripThink(s string) string {
	if !strings.Contains(s, "<think>") {
		return s
	}
	return thinkRe.ReplaceAllString(s, "")
}

// maxParse caps the text parsed: decisions are a few hundred tokens, and
// the repairs are not meant for megabytes.
const maxParse = 32 << 10

// candidates returns the JSON values found in text, most likely first.
func candidates(text string) []any {
	if len(text) > maxParse {
		text = text[:maxParse]
	}
	t := strings.TrimSpace(stripThink(text))
	var srcs []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s != "" {
			srcs = append(srcs, s)
		}
	}
	add(t)
	for _, re := range []*regexp.Regexp{fenceRe, toolTagRe, toolBrkRe} {
		for _, m := range re.FindAllStringSubmatch(t, 4) {
			add(m[1])
		}
	}
	for _, s := range balanced(t, 4) {
		add(s)
	}
	var out []any
	seen := map[string]bool{}
	for _, s := range srcs {
		if seen[s] {
			continue
		}
		seen[s] = true
		if v, ok := decodeLoose(s); ok {
			out = append(out, v)
		}
		if v, ok := funcCall(s); ok {
			out = append(out, v)
		}
	}
	return out
}

// balanced returns up to max {...} or [...] spans of s, outermost first,
// honouring strings. An unclosed span at the end is returned as is.
func balanced(s string, max int) []string {
	var out []string
	for i := 0; i < len(s) && len(out) < max; i++ {
		if s[i] != '{' && s[i] != '[' {
			continue
		}
		end := matchClose(s, i)
		out = append(out, s[i:end])
		if end <= i {
			break
		}
		i = end - 1
	}
	return out
}

// matchClose returns the index just past the bracket that closes s[i], or
// len(s) when it is never closed.
func matchClose(s string, i int) int {
	depth := 0
	var quote byte
	for j := i; j < len(s); j++ {
		c := s[j]
		if quote != 0 {
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// decodeLoose decodes s as JSON, repairing it if it has to.
func decodeLoose(s string) (any, bool) {
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		return v, true
	}
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil, false
	}
	r := repair(s)
	if json.Unmarshal([]byte(r), &v) == nil {
		return v, true
	}
	return nil, false
}

// repair rewrites JSON-like text into JSON: single-quoted strings, Python
// literals, trailing commas, unquoted keys and bare values, and closes what
// a truncated output left open.
func repair(s string) string {
	var b strings.Builder
	var stack []byte
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch {
			case c == '\\' && i+1 < len(s):
				if quote == '\'' && s[i+1] == '\'' {
					b.WriteByte('\'')
				} else {
					b.WriteByte(c)
					b.WriteByte(s[i+1])
				}
				i++
			case c == quote:
				b.WriteByte('"')
				quote = 0
			case c == '"': // a double quote inside a single-quoted string
				b.WriteString(`\"`)
			case c == '\n':
				b.WriteString(`\n`)
			default:
				b.WriteByte(c)
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
			b.WriteByte('"')
		case '{', '[':
			stack = append(stack, c)
			b.WriteByte(c)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	if quote != 0 {
		b.WriteByte('"')
	}
	var closed strings.Builder
	closed.WriteString(strings.TrimRight(strings.TrimSpace(b.String()), ",:"))
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			closed.WriteByte('}')
		} else {
			closed.WriteByte(']')
		}
	}
	out := closed.String()
	out = replaceOutsideStrings(out, func(seg string) string {
		seg = pyLiterals.Replace(seg)
		seg = trailingCommaRe.ReplaceAllString(seg, "$1")
		seg = unquotedRe.ReplaceAllString(seg, `$1"$2":`)
		return seg
	})
	// Bare word values ({"route": web}) need the keys quoted first.
	for _, re := range []*regexp.Regexp{bareValRe, bareElemRe, bareElemRe} {
		out = replaceOutsideStrings(out, func(seg string) string {
			return re.ReplaceAllStringFunc(seg, func(m string) string {
				p := re.FindStringSubmatch(m)
				switch p[2] {
				case "true", "false", "null":
					return m
				}
				return p[1] + `"` + p[2] + `"` + p[3]
			})
		})
	}
	return out
}

var (
	pyLiterals      = strings.NewReplacer("True", "true", "False", "false", "None", "null")
	trailingCommaRe = regexp.MustCompile(`,\s*([}\]])`)
)

// replaceOutsideStrings applies f to the parts of s (valid-quoted JSON-ish)
// that are not inside double-quoted strings. A segment boundary falls on
// each string, so patterns may see the quote that ends a key.
func replaceOutsideStrings(s string, f func(string) string) string {
	var b strings.Builder
	seg := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		b.WriteString(f(s[seg:i]))
		j := i + 1
		for ; j < len(s); j++ {
			if s[j] == '\\' {
				j++
				continue
			}
			if s[j] == '"' {
				break
			}
		}
		if j >= len(s) {
			j = len(s) - 1
		}
		b.WriteString(s[i : j+1])
		seg = j + 1
		i = j
	}
	if seg < len(s) {
		b.WriteString(f(s[seg:]))
	}
	return b.String()
}

// funcCall reads name(args) forms: route("web"), route(route="web",
// keywords=["a"]), plan({"route": "web"}).
func funcCall(s string) (any, bool) {
	m := funcCallRe.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	name := m[1]
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	args := strings.TrimSpace(m[2])
	if v, ok := decodeLoose(args); ok {
		if _, isMap := v.(map[string]any); isMap {
			return map[string]any{"name": name, "arguments": v}, true
		}
	}
	obj := map[string]any{}
	var positional []any
	for _, part := range splitArgs(args) {
		k, val, ok := cutKwarg(part)
		if !ok {
			positional = append(positional, scalar(part))
			continue
		}
		obj[k] = scalar(val)
	}
	if len(positional) == 1 {
		if _, taken := obj[name]; !taken {
			obj[name] = positional[0]
		}
	}
	if len(obj) == 0 {
		return nil, false
	}
	return obj, true
}

// splitArgs splits a call's arguments at top-level commas.
func splitArgs(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{', '(':
			i = matchCloseAny(s, i) - 1
		case ',':
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func matchCloseAny(s string, i int) int {
	if s[i] == '(' {
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	return matchClose(s, i)
}

var kwargRe = regexp.MustCompile(`^\s*["']?([A-Za-z_]\w*)["']?\s*[=:]\s*(.*)$`)

func cutKwarg(s string) (k, v string, ok bool) {
	m := kwargRe.FindStringSubmatch(s)
	if m == nil || strings.HasPrefix(strings.TrimSpace(s), `"`) && !strings.Contains(s, `"=`) && !strings.Contains(s, `":`) {
		return "", "", false
	}
	return m[1], m[2], true
}

// scalar decodes one argument value: JSON, a quoted string, or a bare word.
func scalar(s string) any {
	s = strings.TrimSpace(s)
	if v, ok := decodeLoose(s); ok {
		return v
	}
	if len(s) >= 2 && (s[0] == '\'' && s[len(s)-1] == '\'' || s[0] == '"' && s[len(s)-1] == '"') {
		return s[1 : len(s)-1]
	}
	switch s {
	case "True", "true":
		return true
	case "False", "false":
		return false
	case "None", "null":
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}

// objects returns the objects a decoded value may stand for: the value
// itself, the arguments of a tool-call wrapper, the single object in an
// array, the one object nested under a single key.
func objects(v any) []map[string]any {
	var out []map[string]any
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 3 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			m := normKeys(x)
			for _, k := range []string{"arguments", "parameters", "args", "input", "function"} {
				if inner, ok := m[k]; ok {
					if s, isStr := inner.(string); isStr {
						if d, ok := decodeLoose(s); ok {
							inner = d
						}
					}
					walk(inner, depth+1)
				}
			}
			out = append(out, m)
			if len(m) == 1 {
				for _, inner := range m {
					if _, ok := inner.(map[string]any); ok {
						walk(inner, depth+1)
					}
				}
			}
		case []any:
			if len(x) == 1 {
				walk(x[0], depth+1)
			}
		case string:
			if d, ok := decodeLoose(x); ok {
				walk(d, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}

// normKeys lower-cases keys and turns spaces and dashes into underscores.
func normKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[normKey(k)] = v
	}
	return out
}

func normKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(k)
}

// get returns the first of keys present in m.
func get(m map[string]any, keys ...string) (any, bool) {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v, true
		}
	}
	return nil, false
}

// str turns a value into a string ("" for null and containers).
func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		if len(x) == 1 {
			return str(x[0])
		}
	}
	return ""
}

// strs turns a list, or a comma-separated string, into strings.
func strs(v any) []string {
	var out []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if s := str(e); s != "" {
				out = append(out, s)
			}
		}
	case string:
		for _, p := range strings.Split(x, ",") {
			if s := strings.TrimSpace(p); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

var intRe = regexp.MustCompile(`-?\d+`)

// toInt reads 3, 3.0, "3", "[3]", "chunk 3", "#3".
func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	case string:
		if m := intRe.FindString(x); m != "" {
			n, err := strconv.Atoi(m)
			return n, err == nil
		}
	}
	return 0, false
}

// toBool reads true, "yes", "true", "supported", 1.
func toBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		return x != 0, true
	case string:
		switch strings.ToLower(strings.Trim(strings.TrimSpace(x), `."'`)) {
		case "true", "yes", "y", "1", "supported", "grounded", "correct", "valid":
			return true, true
		case "false", "no", "n", "0", "unsupported", "ungrounded", "incorrect", "invalid":
			return false, true
		}
	}
	return false, false
}

// bareWord returns text reduced to a single word if it is one: "web",
// "[web]", "`web`", "Route: web.", "<route>web</route>".
func bareWord(text string) string {
	t := strings.TrimSpace(stripThink(text))
	t = xmlTagRe.ReplaceAllString(t, "$1")
	if i := strings.LastIndexAny(t, ":="); i >= 0 && i < len(t)-1 {
		t = t[i+1:]
	}
	t = strings.Trim(t, " \t\r\n\"'`[]()<>{}.,;!*")
	if t == "" || strings.ContainsAny(t, " \n\t,") {
		return ""
	}
	return strings.ToLower(t)
}

var xmlTagRe = regexp.MustCompile(`(?s)^<\w+>\s*(.*?)\s*</\w+>$`)
