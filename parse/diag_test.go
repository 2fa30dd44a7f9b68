package parse

import (
	"fmt"
	"strings"
	"testing"
)

// TestDiagnosticKindCap: a report whose every index line has the same
// deviations lists the first kindCap diagnostics of each kind by line and
// one more per kind that counts the rest and names their lines; the
// findings are all read, and a report under the cap lists every one.
func TestDiagnosticKindCap(t *testing.T) {
	for _, n := range []int{kindCap, kindCap + 37} {
		var b strings.Builder
		b.WriteString("### Findings Index\n")
		for i := range n {
			fmt.Fprintf(&b, "**P1-%d** | \"S\" | Title number %d\n", i+1, i)
		}
		b.WriteString("Verdict: needs-changes\n<!-- flux-drive:complete -->\n")
		r := ReadReport([]byte(b.String()))
		if len(r.Findings) != n {
			t.Fatalf("n=%d: %d findings", n, len(r.Findings))
		}
		perKind := map[string]int{}
		var summaries []Diagnostic
		for _, d := range r.Diagnostics {
			if strings.Contains(d.Message, "not listed") {
				summaries = append(summaries, d)
				continue
			}
			msg := d.Message
			if strings.HasPrefix(msg, "ID ") {
				msg = "ID"
			}
			perKind[string(d.Level)+" "+msg]++
		}
		if len(perKind) != 4 {
			t.Fatalf("n=%d: kinds %v, want the four deviations of a bold-ID line", n, perKind)
		}
		for k, c := range perKind {
			if c != min(n, kindCap) {
				t.Errorf("n=%d: %d diagnostics of %q listed, want %d", n, c, k, min(n, kindCap))
			}
		}
		if n <= kindCap {
			if len(summaries) != 0 {
				t.Errorf("n=%d: summaries %v under the cap", n, summaries)
			}
			continue
		}
		if len(summaries) != 4 {
			t.Fatalf("n=%d: %d summaries, want one per kind: %v", n, len(summaries), summaries)
		}
		first, last := kindCap+2, n+1 // line 1 is the heading
		for _, d := range summaries {
			want := fmt.Sprintf("37 more lines like this through line %d, not listed (the first %d are)", last, kindCap)
			if d.Line != first || !strings.HasSuffix(d.Message, want) {
				t.Errorf("summary %d: %q, want line %d and %q", d.Line, d.Message, first, want)
			}
			if strings.Contains(d.Message, "%") {
				t.Errorf("summary shows a formatting verb: %q", d.Message)
			}
		}
		again := ReadReport([]byte(b.String()))
		if fmt.Sprint(again.Diagnostics) != fmt.Sprint(r.Diagnostics) {
			t.Error("two reads of one report give their diagnostics in different orders")
		}
	}
}
