package parse

import "sort"

// sortDiags orders diagnostics by line, keeping the order of equal lines.
func sortDiags(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Line < ds[j].Line })
}
