package parse

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// tableRowSplitEach is the former tableCols.row, which split the row again
// for each cell it read: the reference of the one that splits it once.
func tableRowSplitEach(c *tableCols, row string, num int) (noted, bool) {
	cell := func(j int) string {
		cells := tableCells(row)
		if j < 0 || j >= len(cells) {
			return ""
		}
		return strings.TrimSpace(stripBold(cells[j]))
	}
	return c.rowOf(cell, tableCells(row), num)
}

// TestTableRowSplitOnce compares the table row reader with the reference
// on random rows: cells of severities, IDs, file paths, line ranges,
// references, bold, backticks and escaped pipes, under random columns.
func TestTableRowSplitOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	parts := []string{"P1", "HIGH", "IMP-1", "AR-001", "**P0**", "`a.go`", "a.go", "src/x.go:12", "3", "4–9", "1 - 2",
		"Title words", `"Security"`, "“API”", `a \| b`, "`x|y`", "", " ", "—", "see b.go:7", "lines 3-4"}
	for range 20000 {
		var b strings.Builder
		b.WriteString("|")
		for range r.IntN(8) {
			b.WriteString(" " + parts[r.IntN(len(parts))] + " |")
		}
		if r.IntN(4) == 0 {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		row := b.String()
		col := func() int { return r.IntN(8) - 1 }
		c := tableCols{id: col(), sev: col(), section: col(), title: col(), file: col(), lines: col()}
		got, gok := c.row(row, 7)
		want, wok := tableRowSplitEach(&c, row, 7)
		if gok != wok || !reflect.DeepEqual(got, want) {
			t.Fatalf("row %q, columns %+v:\n got %+v %v\nwant %+v %v", row, c, got, gok, want, wok)
		}
	}
}
