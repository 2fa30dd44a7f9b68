package parse

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// endingCtx is a context whose Err turns to Canceled at its after-th call:
// a parse that ticks in its long loops notices it part way.
type endingCtx struct {
	context.Context
	calls, after int
}

func (c *endingCtx) Done() <-chan struct{} { return make(chan struct{}) }

func (c *endingCtx) Err() error {
	c.calls++
	if c.calls >= c.after {
		return context.Canceled
	}
	return nil
}

// TestReadReportContextStops: a parse of a large report of each kind gives
// up with the context's error once the context ends part way — in the index,
// the prose walk, the prose dedup or description linking — and one whose
// context never ends gives what ReadReportString gives.
func TestReadReportContextStops(t *testing.T) {
	var strict, prose, group strings.Builder
	strict.WriteString("### Findings Index\n")
	prose.WriteString("# Review\n\n## Issues Found\n\n")
	group.WriteString("# Review\n\n## P1 findings\n\n")
	for i := range 20000 {
		fmt.Fprintf(&strict, "- P1 | AR-%03d | \"S\" | Title number %d\n", i%1000, i)
		fmt.Fprintf(&prose, "- **[P2] Prose title %d words here** — at `a.go:%d`.\n", i, i+1)
		fmt.Fprintf(&group, "- Grouped title %d of many words\n", i)
	}
	strict.WriteString("Verdict: needs-changes\n")
	for name, text := range map[string]string{"strict index": strict.String(), "prose": prose.String(), "severity group": group.String()} {
		want := ReadReportString(text)
		got, err := ReadReportContext(context.Background(), text)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with a context that never ends: err %v, same report %v", name, err, reflect.DeepEqual(got, want))
		}
		for _, after := range []int{2, 5, 20} {
			ctx := &endingCtx{Context: context.Background(), after: after}
			r, err := ReadReportContext(ctx, text)
			if !errors.Is(err, context.Canceled) || r != nil {
				t.Errorf("%s: context ended at its check %d: report %v, err %v; want no report and Canceled", name, after, r != nil, err)
			}
		}
	}
}
