// Package reportgen writes large agent reports of the shapes SPEC §2 accepts,
// deterministically, to a given size: the inputs of the scale benchmarks of
// SPEC §9 ("doubling any input … at most ~2.2× the time"), used by the Go
// benchmarks of parse and by procbench's whole-process scale table.
//
// Titles are drawn from a vocabulary of a few thousand made-up words, so that
// titles share keywords the way real ones do (the prose fallback's duplicate
// search sees many candidates) without being equal; one item in sixteen
// restates an earlier title in another section (a summary list), which the
// prose fallback counts once.
//
// It is for benchmarks and tests only: the command must never import it.
package reportgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Shape is a kind of report.
type Shape string

// The shapes: the strict Findings Index of §2.1, the major variants of §2.2,
// and the three forms of the prose fallback of §2.3.
const (
	Strict     Shape = "strict"      // - P1 | AR-001 | "Section" | Title
	Padded     Shape = "padded"      // -  P1  |  AR-001  |  Section  |  Title   (padded, unquoted)
	Words      Shape = "words"       // - HIGH | AR-001 | "Section" | Title     (severity words)
	BoldID     Shape = "bold-id"     // **P1-1** | "Section" | Title            (bold ID, no severity column)
	Bracket    Shape = "bracket"     // - [P1] Title — Section
	Table      Shape = "table"       // | ID | Severity | Section | Title |
	ProseBold  Shape = "prose-bold"  // - **[P1] Title** — text, under "## Issues Found"
	ProseGroup Shape = "prose-group" // ## P1 findings, then bullets
	ProseField Shape = "prose-field" // ### Finding N: Title, then **Severity:** P1
)

// Shapes lists every shape: the strict index, the variants, the prose forms.
var Shapes = []Shape{Strict, Padded, Words, BoldID, Bracket, Table, ProseBold, ProseGroup, ProseField}

// Variants are the index shapes of §2.2 other than the strict one.
var Variants = []Shape{Padded, Words, BoldID, Bracket, Table}

// Prose are the shapes read by the prose fallback.
var Prose = []Shape{ProseBold, ProseGroup, ProseField}

// IsProse reports whether reports of shape s have no index.
func (s Shape) IsProse() bool { return strings.HasPrefix(string(s), "prose") }

// Report returns a report of shape s of at most size bytes (and within a
// few hundred bytes of it), the same bytes for the same arguments. It panics
// on an unknown shape.
func Report(s Shape, size int) []byte {
	g := &gen{r: rand.New(rand.NewPCG(uint64(len(s)), 14)), shape: s}
	g.words = make([]string, 4000)
	for i := range g.words {
		g.words[i] = g.word(5 + g.r.IntN(5))
	}
	if s.IsGeneral() {
		return g.general(size)
	}
	var b bytes.Buffer
	b.Grow(size + 1024)
	g.head(&b)
	tail := g.tail()
	for i := 0; ; i++ {
		item := g.item(i)
		if b.Len()+len(item)+len(tail) > size {
			break
		}
		b.WriteString(item)
	}
	b.WriteString(tail)
	return b.Bytes()
}

type gen struct {
	r      *rand.Rand
	shape  Shape
	words  []string
	titles []string // earlier titles, some restated
	fresh  bool     // restate no title (a group that states its count)
}

func (g *gen) word(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + g.r.IntN(26))
	}
	return string(b)
}

var sevs = []string{"P0", "P1", "P1", "P2", "P2", "P2", "P3", "P3"}
var sevWords = map[string]string{"P0": "CRITICAL", "P1": "HIGH", "P2": "MEDIUM", "P3": "LOW"}

// title is a new title of five to eight words from the vocabulary, or, one
// time in sixteen, an earlier title restated.
func (g *gen) title() string {
	if len(g.titles) > 8 && g.r.IntN(16) == 0 && !g.fresh {
		return g.titles[g.r.IntN(len(g.titles))]
	}
	n := 5 + g.r.IntN(4)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.words[g.r.IntN(len(g.words))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	t := strings.Join(ws, " ")
	if len(g.titles) < 1<<16 {
		g.titles = append(g.titles, t)
	}
	return t
}

// id is the i-th ID of the strict pattern [A-Z]{2,3}-\d{3}.
func id(i int) string {
	return fmt.Sprintf("%c%c-%03d", 'A'+byte(i/1000/26%26), 'A'+byte(i/1000%26), i%1000)
}

func (g *gen) section() string {
	return []string{"Security", "API Design", "Performance", "Data Model", "Testing", "Operations"}[g.r.IntN(6)]
}

func (g *gen) ref() string {
	return fmt.Sprintf("src/%s/%s.go:%d", g.words[g.r.IntN(64)], g.words[g.r.IntN(len(g.words))], 1+g.r.IntN(900))
}

func (g *gen) head(b *bytes.Buffer) {
	switch g.shape {
	case Strict, Padded, Words, BoldID, Bracket:
		b.WriteString("### Findings Index\n")
	case Table:
		b.WriteString("## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n")
	case ProseBold:
		b.WriteString("# Review\n\nThe agent wrote prose only.\n\n## Issues Found\n\n")
	case ProseGroup:
		b.WriteString("# Review\n\n")
	case ProseField:
		b.WriteString("# Review\n\n## Detailed Analysis\n\n")
	default:
		panic("reportgen: unknown shape " + string(g.shape))
	}
}

func (g *gen) tail() string {
	switch g.shape {
	case Strict, Padded, Words, BoldID, Bracket, Table:
		return "Verdict: risky\n\n## Summary\n\nDone.\n\n<!-- flux-drive:complete -->\n"
	}
	return "\n## Verdict\n\nrisky\n\n<!-- flux-drive:complete -->\n"
}

func (g *gen) item(i int) string {
	sev := sevs[g.r.IntN(len(sevs))]
	t := g.title()
	switch g.shape {
	case Strict:
		return fmt.Sprintf("- %s | %s | %q | %s\n", sev, id(i), g.section(), t)
	case Padded:
		return fmt.Sprintf("-  %s  |  %s  |  %s  |  %s  \n", sev, id(i), g.section(), t)
	case Words:
		return fmt.Sprintf("- %s | %s | %q | %s\n", sevWords[sev], id(i), g.section(), t)
	case BoldID:
		return fmt.Sprintf("**%s-%d** | %q | %s\n", sev, i+1, g.section(), t)
	case Bracket:
		return fmt.Sprintf("- [%s] %s — %s\n", sev, t, g.section())
	case Table:
		return fmt.Sprintf("| %s | %s | %s | %s |\n", id(i), sev, g.section(), t)
	case ProseBold:
		if i > 0 && i%200 == 0 {
			return "\n## Issues Found (continued)\n\n"
		}
		return fmt.Sprintf("- **[%s] %s** — seen at `%s`, %s.\n", sev, t, g.ref(), g.words[g.r.IntN(len(g.words))])
	case ProseGroup:
		if i%50 == 0 {
			return fmt.Sprintf("\n## %s findings\n\n", sev)
		}
		return fmt.Sprintf("- %s (`%s`)\n", t, g.ref())
	case ProseField:
		return fmt.Sprintf("### Finding %d: %s\n\n**Severity:** %s\n\nAt `%s` the %s path %s.\n\n", i+1, t, sev, g.ref(),
			g.words[g.r.IntN(len(g.words))], g.words[g.r.IntN(len(g.words))])
	}
	panic("reportgen: unknown shape " + string(g.shape))
}
