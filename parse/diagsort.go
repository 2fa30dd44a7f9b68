package parse

import (
	"cmp"
	"slices"
)

// sortDiags orders diagnostics by line, keeping the order of equal lines.
func sortDiags(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int { return cmp.Compare(a.Line, b.Line) })
}
