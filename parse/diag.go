package parse

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Level is how serious a diagnostic is.
type Level string

// Diagnostic levels.
const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelInfo    Level = "info"
)

// Diagnostic is a message about one position of one input.
// Line and Col are 1-based; 0 means "the whole file" or "unknown column".
type Diagnostic struct {
	Path    string `json:"-"`
	Line    int    `json:"line"`
	Col     int    `json:"-"`
	Level   Level  `json:"level"`
	Message string `json:"message"`
}

// String formats d as "path:line:col: level: message", leaving out the parts
// that are unknown.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteByte(':')
	}
	if d.Line > 0 {
		fmt.Fprintf(&b, "%d:", d.Line)
		if d.Col > 0 {
			fmt.Fprintf(&b, "%d:", d.Col)
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "%s: %s", d.Level, d.Message)
	return b.String()
}

// WithPath returns ds with Path set on every diagnostic that has none.
func WithPath(ds []Diagnostic, path string) []Diagnostic {
	for i := range ds {
		if ds[i].Path == "" {
			ds[i].Path = path
		}
	}
	return ds
}

func diag(line int, level Level, format string, a ...any) Diagnostic {
	msg := format
	if s, ok := fixedNote(format, a); ok {
		msg = s // shared, not copied once per line
	} else if len(a) > 0 || strings.Contains(format, "%") {
		msg = fmt.Sprintf(format, a...)
	}
	return Diagnostic{Line: line, Level: level, Message: msg}
}

// fixedNote returns the note of a diagnostic written as ("%s", note).
func fixedNote(format string, a []any) (string, bool) {
	if format != "%s" || len(a) != 1 {
		return "", false
	}
	s, ok := a[0].(string)
	return s, ok
}

// kindCap is how many diagnostics of one kind — one level and format — a
// report lists line by line. A report of a few hundred lines never reaches
// it; a generated one of 200,000 index lines, each without its bullet,
// would otherwise carry 200,000 copies of one warning (SPEC §9 bounds a
// report's memory). Past the cap, one more diagnostic counts the rest.
const kindCap = 1000

// diagList collects diagnostics, at most kindCap of each kind.
type diagList struct {
	ds    []Diagnostic
	kinds map[diagKind]*overflow
}

type diagKind struct {
	level  Level
	format string
}

// overflow counts the diagnostics of one kind.
type overflow struct {
	n           int // all of them, listed or not
	first, last int // lines of the first and last unlisted one
}

// add records a diagnostic of level at line, formatted only when it is
// listed.
func (l *diagList) add(line int, level Level, format string, a ...any) {
	k := diagKind{level, format}
	if s, ok := fixedNote(format, a); ok {
		k.format = s // "%s" and a fixed note: the note is the kind
	}
	if l.count(k, line) {
		l.ds = append(l.ds, diag(line, level, format, a...))
	}
}

// addNote records a diagnostic whose message is note itself: the note is
// its kind. (add would box the note into an argument list on every line.)
func (l *diagList) addNote(line int, level Level, note string) {
	if l.count(diagKind{level, note}, line) {
		l.ds = append(l.ds, Diagnostic{Line: line, Level: level, Message: note})
	}
}

// count counts a diagnostic of kind k at line and reports whether it is
// listed: whether fewer than kindCap of its kind came before it.
func (l *diagList) count(k diagKind, line int) bool {
	if l.kinds == nil {
		l.kinds = map[diagKind]*overflow{}
	}
	o := l.kinds[k]
	if o == nil {
		o = &overflow{}
		l.kinds[k] = o
	}
	o.n++
	if o.n <= kindCap {
		return true
	}
	if o.first == 0 {
		o.first = line
	}
	o.last = line
	return false
}

// verbRe matches a formatting verb: the part of a kind's message that
// differs from line to line.
var verbRe = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// list returns the diagnostics with one more for each kind over the cap,
// at the line of its first unlisted diagnostic.
func (l *diagList) list() []Diagnostic {
	over := make([]diagKind, 0, len(l.kinds))
	for k, o := range l.kinds {
		if o.n > kindCap {
			over = append(over, k)
		}
	}
	slices.SortFunc(over, func(a, b diagKind) int {
		return cmp.Or(cmp.Compare(l.kinds[a].first, l.kinds[b].first), cmp.Compare(a.level, b.level), cmp.Compare(a.format, b.format))
	})
	for _, k := range over {
		o := l.kinds[k]
		l.ds = append(l.ds, Diagnostic{Line: o.first, Level: k.level, Message: fmt.Sprintf(
			"%s: %d more lines like this through line %d, not listed (the first %d are)",
			verbRe.ReplaceAllString(k.format, "…"), o.n-kindCap, o.last, kindCap)})
	}
	return l.ds
}
