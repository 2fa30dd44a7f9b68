package parse

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// frontMatterLines is body between "---" lines, as the parser's lines.
func frontMatterLines(body string) ([]line, int, int) {
	_, ls := splitLines("---\n" + body + "\n---\n")
	return ls, 0, len(ls)
}

// checkFastFrontMatter holds readFrontMatter to the YAML decoder alone on
// body; it reports whether the reader without a decoder read it.
func checkFastFrontMatter(t *testing.T, body string) bool {
	t.Helper()
	ls, start, end := frontMatterLines(body)
	if strings.TrimSpace(ls[end-1].text) != "---" {
		return false
	}
	got := readFrontMatterWith(ls, start, end, true)
	want := readFrontMatterWith(ls, start, end, false)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("front matter\n%s\nread without a decoder:\n%+v\nyaml.v3:\n%+v", body, got, want)
	}
	_, fast := fastFrontMatter(ls[start+1:end-1], ls[start].num)
	return fast
}

// TestFastFrontMatterGolden: each shape the reader without a decoder takes,
// and shapes next to them it must leave to yaml.v3, read as yaml.v3 reads
// them.
func TestFastFrontMatterGolden(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		fast       bool
	}{
		{"scalars", "model: claude-sonnet-4\nfinished: 2026-11-20T10:42:00Z\nverdict: needs-changes", true},
		{"quoted", "verdict: \"risky\"\nmodel: 'gpt 5'\ntokens: 1_200", true},
		{"legacy index", "issues:\n  - id: P1-1\n    severity: P1\n    section: \"Task 3: Tier naming\"\n    title: \"Launch template\"\n  - severity: critical\n    title: Retry loop\nimprovements:\n  - id: IMP-1\n    title: Echo\nverdict: risky", true},
		{"sequence at the key's column", "findings:\n- id: A-1\n  severity: P0\n  title: Leak\n\n- title: No severity\nagent: x", true},
		{"scalar items", "issues:\n  - one\n  - two\nagents:\n  - a\n  - b", true},
		{"empty list and mapping", "issues:\n  - title: t\n    severity: P1\nimprovements: []\nusage: {}\nverdict: risky", true},
		{"flow list", "improvements: [ ]", false},
		{"usage mapping", "usage:\n  input_tokens: 1,000\n  output_tokens: 200\nmessage_id: m-1", true},
		{"blank lines", "\nmodel: m\n\n\nverdict: safe\n", true},
		{"duplicate keys", "verdict: safe\nverdict: risky\nissues:\n  - title: a\n    title: b\n    severity: P1", true},
		{"comment", "# a comment\nverdict: safe", false},
		{"trailing comment", "verdict: safe # not really", false},
		{"empty value", "verdict:\nmodel: m", false},
		{"alias", "a: &x safe\nverdict: *x", false},
		{"flow sequence", "agents: [a, b]", false},
		{"block scalar", "summary: |\n  two\n  lines", false},
		{"nested list in an item", "issues:\n  - title: t\n    severity: P1\n    files:\n      - a.go", false},
		{"continued plain scalar", "title: one\n  two", false},
		{"escape", "title: \"a\\tb\"", false},
		{"tab", "title:\tx", false},
		{"not YAML", "title: a: b", false},
		{"NEL", "title: a\u0085b", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if fast := checkFastFrontMatter(t, tt.body); fast != tt.fast {
				t.Errorf("read without a decoder: %v, want %v", fast, tt.fast)
			}
		})
	}
}

// TestFastFrontMatterIsYAML holds the reader without a decoder to yaml.v3
// on random front matter: plain shapes with words of a small alphabet that
// holds YAML's indicators, quotes, spaces, tabs and characters YAML treats
// apart, then a few bytes changed.
func TestFastFrontMatterIsYAML(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 12))
	atoms := []string{"a", "b", "P1", "HIGH", "critical", "id", "x-1", ":", " ", "  ", "#", " #", ": ", ":x", "\"", "'", "-", "- ",
		"[", "]", "{", "}", ",", "&", "*", "!", "|", ">", "%", "@", "`", "?", "\t", "é", "\u00a0", "\u0085", "\u2028",
		"\ufeff", "\x7f", "\\", "~", "null", "true", "1_000", "2026-11-20"}
	keys := []string{"verdict", "review_status", "decision", "model", "tokens", "total_tokens", "usage",
		"issues", "findings", "improvements", "message_id", "title", "severity", "priority", "id", "section",
		"area", "summary", "description", "input_tokens", "output_tokens", "k.1", "a-b"}
	word := func() string {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			if r.IntN(2) == 0 {
				b.WriteString(atoms[r.IntN(len(atoms))])
			} else {
				b.WriteString(atoms[r.IntN(7)])
			}
		}
		return b.String()
	}
	value := func() string {
		switch r.IntN(7) {
		case 6:
			return []string{"[]", "{}", "[ ]", "[a]", "{a: b}", "[]]"}[r.IntN(6)]
		case 0:
			return "\"" + word() + "\""
		case 1:
			return "'" + word() + "'"
		case 2:
			return "P" + string(rune('0'+r.IntN(5)))
		}
		return word()
	}
	fast, n := 0, 4000
	for range n {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			key := keys[r.IntN(len(keys))]
			switch r.IntN(4) {
			case 0, 1:
				b.WriteString(key + ": " + value() + "\n")
			case 2:
				ind := strings.Repeat(" ", r.IntN(3))
				b.WriteString(key + ":\n")
				for range 1 + r.IntN(3) {
					if r.IntN(5) == 0 {
						b.WriteString(ind + "- " + value() + "\n")
						continue
					}
					for j := range 1 + r.IntN(4) {
						lead := ind + "  "
						if j == 0 {
							lead = ind + "- "
						}
						b.WriteString(lead + keys[r.IntN(len(keys))] + ": " + value() + "\n")
					}
					if r.IntN(8) == 0 {
						b.WriteString("\n")
					}
				}
			default:
				ind := strings.Repeat(" ", 1+r.IntN(3))
				b.WriteString(key + ":\n")
				for range 1 + r.IntN(3) {
					b.WriteString(ind + keys[r.IntN(len(keys))] + ": " + value() + "\n")
				}
			}
		}
		body := []byte(strings.TrimSuffix(b.String(), "\n"))
		for range r.IntN(3) {
			if len(body) > 0 && r.IntN(2) == 0 {
				body[r.IntN(len(body))] = " :-#\"\n\t'"[r.IntN(8)]
			}
		}
		if checkFastFrontMatter(t, string(body)) {
			fast++
		}
	}
	// Both readers must have been exercised for the comparison to mean
	// anything.
	if fast < n/10 || fast > n*9/10 {
		t.Errorf("%d of %d read without a decoder, want between a tenth and nine tenths", fast, n)
	}
}

// FuzzFastFrontMatter holds the reader without a decoder to yaml.v3 on any
// front matter.
func FuzzFastFrontMatter(f *testing.F) {
	for _, s := range []string{
		"model: m\nverdict: safe",
		"issues:\n  - id: P1-1\n    severity: P1\n    title: \"t\"\n  - x",
		"findings:\n- title: a\n  priority: high\nusage:\n  tokens: 12",
		"a: 'b'\nc: \"d\"\n\ne: f#g",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkFastFrontMatter(t, body)
	})
}

// BenchmarkFrontMatter reads the legacy index of 50 issues in front matter
// without and with the YAML decoder.
func BenchmarkFrontMatter(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("agent: fd-agent-0002\n")
	sb.WriteString("issues:\n")
	for i := range 50 {
		sb.WriteString("  - id: AAC-0" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + "\n")
		sb.WriteString("    severity: P" + string(rune('0'+i%4)) + "\n")
		sb.WriteString("    section: \"Data Model\"\n")
		sb.WriteString("    title: \"Unsafe deserialization in the handler of item " + string(rune('a'+i%26)) + "\"\n")
	}
	sb.WriteString("verdict: risky")
	ls, start, end := frontMatterLines(sb.String())
	for _, fast := range []bool{true, false} {
		name := "yaml"
		if fast {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if fm := readFrontMatterWith(ls, start, end, fast); len(fm.findings) != 50 {
					b.Fatalf("%d findings", len(fm.findings))
				}
			}
		})
	}
}

// TestTokenCountGrouping: a token count's digits may be grouped by "," or
// "_"; anything else is no count.
func TestTokenCountGrouping(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want int64
	}{
		{[]string{"1,200"}, 1200},
		{[]string{" 15_234 "}, 15234},
		{[]string{"1,2_3"}, 123},
		{[]string{"1.5k", "7"}, 7},
		{[]string{"-5"}, 0},
		{[]string{"", "0", "x"}, 0},
	} {
		if got := tokenCount(tt.in...); got != tt.want {
			t.Errorf("tokenCount(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
