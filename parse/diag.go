package parse

import (
	"fmt"
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
