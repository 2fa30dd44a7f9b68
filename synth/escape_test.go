package synth

// The rendering tests read summary.md through github.com/yuin/goldmark with
// its GFM extension (tables, strikethrough, autolinks, task lists): a real
// CommonMark/GFM renderer, used by tests only.

import (
	"bytes"
	"encoding/xml"
	"html"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

func TestMdText(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain text stays", "Token cache grows without bound (a.go:12)", "Token cache grows without bound (a.go:12)"},
		{"snake_case stays", "max_entries is ignored", "max_entries is ignored"},
		{"numbers and dashes stay", "1.5 ms - not 2 ms; fd-safety, x-y", "1.5 ms - not 2 ms; fd-safety, x-y"},
		{"a code span stays", "`os.Root` not used for <paths>", "`os.Root` not used for \\<paths\\>"},
		{"lines joined", "two\nlines\r\n\tand  spaces ", "two lines and spaces"},
		{"script", "<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"comment", "<!-- x -->", `\<!-- x --\>`},
		{"javascript link", "[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"image", "![x](https://e.test/a.png)", `!\[x\](https\://e.test/a.png)`},
		{"autolink", "<https://e.test>", `\<https\://e.test\>`},
		{"bare url", "see https://e.test and www.e.test", `see https\://e.test and www\.e.test`},
		{"email", "mail a@b.test", `mail a\@b.test`},
		{"pipe", "a | b", `a \| b`},
		{"backslash", `\<b>`, `\\\<b\>`},
		{"entity", "&lt;b&gt; &#60; AT&T & co", `\&lt;b\&gt; \&#60; AT\&T & co`},
		{"emphasis", "**bold** _it_ ~~s~~ __init__", `\*\*bold\*\* \_it\_ \~\~s\~\~ \_\_init\_\_`},
		{"math", "costs $2 and $3", `costs \$2 and \$3`},
		{"unclosed backtick", "a ` b", "a \\` b"},
		{"code span with a pipe", "`a|b`", "\\`a\\|b\\`"},
		{"heading", "# Title", `\# Title`},
		{"list", "- item", `\- item`},
		{"ordered list", "12. item", `12\. item`},
		{"ordered list paren", "1) item", `1\) item`},
		{"rule", "---", `\---`},
		{"not a marker", "-foo #1 +1 1.5", "-foo #1 +1 1.5"},
	} {
		if got := mdText(tt.in); got != tt.want {
			t.Errorf("%s: mdText(%q) = %q; want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// hostileTexts are agent-written strings that would be markup if pasted raw.
var hostileTexts = []string{
	"<script>alert(1)</script>",
	`<img src=x onerror="alert(1)">`,
	"<!-- hidden --> after",
	"<details><summary>open</summary>x</details>",
	"[click](javascript:alert(1))",
	"![img](javascript:alert(1))",
	"<javascript:alert(1)>",
	"<https://evil.test/x>",
	"see https://evil.test/x or www.evil.test",
	"[ref]\n\n[ref]: javascript:alert(1)",
	"a | b | c",
	"line one\n# heading\n- item\n\n<div>x</div>",
	"`code` and `` ` `` and ```",
	`\<b>escaped\</b>`,
	"&lt;b&gt;&#x3C;i&#62;",
	"**bold** __init__ ~~gone~~ $x$",
	"1. one",
	"- - -",
	"x@y.test",
}

// hostileSynthesis puts s into every agent-written field summary.md shows.
func hostileSynthesis(s string) *Synthesis {
	file := s
	declared := parse.Verdict(s)
	by := s
	return &Synthesis{
		Verdict: parse.NeedsChanges, Input: s, Reviewed: "2026-11-20T10:00:00Z",
		AgentsLaunched: []string{s}, AgentsCompleted: []string{s}, AgentsForeign: []string{s}, AgentsPartial: []string{s},
		Agents: []AgentResult{
			{Name: s, File: &file, Status: parse.StatusValid, DeclaredVerdict: &declared, Verdict: parse.Safe,
				Envelope:    map[string]string{"message_id": s, s: s},
				Diagnostics: []Diagnostic{{Line: 3, Level: parse.LevelWarning, Message: s}}},
			{Name: s, File: &file, Status: parse.StatusError, Verdict: parse.Error},
			{Name: s, File: &file, Status: parse.StatusPartial, Verdict: parse.Pending},
			{Name: s, File: &file, Status: parse.StatusForeign, Verdict: parse.Pending},
			{Name: s, File: &file, Status: parse.StatusMalformed, Verdict: parse.Safe},
		},
		Findings: []Finding{{
			ID: s, Severity: parse.P0, Section: s, Title: s, Agents: []string{s, s}, ConvergenceDisplay: "2/2",
			Confidence: "medium", FileRefs: []string{s},
			more: &findingMore{discoveredBy: &by, severityConflict: map[string]parse.Severity{s: parse.P0, s + "2": parse.P1},
				evidence: &FindingEvidence{Ungrounded: true, Claims: []parse.ClaimResult{
					{EvidenceClaim: parse.EvidenceClaim{Agent: s, Claim: parse.Claim{Path: s, Start: 1, End: 2}}, Status: parse.EvidenceMismatch, Note: s},
					{EvidenceClaim: parse.EvidenceClaim{Agent: s, Claim: parse.Claim{Path: s, Start: 1, End: 1}}, Status: parse.EvidenceMoved, Found: s},
				}}},
		}, {Severity: parse.P2, Section: s, Title: s, Agents: []string{s}, ConvergenceDisplay: "1/2", Confidence: "low",
			Sources: []Source{{Agent: s, Ref: "fd-x.md:3"}}}},
		Improvements: []Improvement{{ID: s, Section: s, Title: s, Agents: []string{s}}, {Title: s, Agents: []string{s}}},
		Timeline: &Timeline{Files: []string{s}, Total: 1,
			Entries:        []TimelineEntry{{Seq: 1, Timestamp: s, Agent: s, Severity: s, Category: s, Summary: s}},
			Adjustments:    []Adjustment{{Seq: 1, Agent: s, After: s, Summary: s}},
			Unacknowledged: []Unacknowledged{{Seq: 1, Agent: s, Summary: s, By: []string{s}}},
			Contradictions: []Contradiction{{Seq: 1, Of: s, Agent: s, Summary: s, Reason: "lower-severity", Severity: parse.P3},
				{Seq: 1, Of: s, Agent: s, Summary: s, Reason: "safe-overlap"}},
			AdjustmentsTotal: 1, UnacknowledgedTotal: 1, ContradictionsTotal: 2, Stalled: []string{s}},
		Specialists: []Specialist{{Name: s, File: s, PendingRefinements: 1, Approaches: []Approach{{ID: s, Description: s,
			RelevantFiles: []string{s}, PendingRefinement: s, UnansweredQuestions: []string{s}}},
			Diagnostics: []Diagnostic{{Message: s}}}},
		Design:      []parse.Design{{ScreenshotFileName: s, Description: s}},
		Evidence:    &EvidenceTally{Repo: s, Claims: 2, Mismatch: 1, Moved: 1, Ungrounded: 1},
		Diagnostics: []Diagnostic{{File: s, Line: 1, Level: parse.LevelError, Message: s}},
	}
}

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))

// allowedTags are the elements summary.md itself makes: anything else in
// the HTML came from agent text.
var allowedTags = map[string]bool{"h1": true, "h2": true, "h3": true, "p": true, "ul": true, "li": true,
	"strong": true, "code": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"input": true, "hr": false}

var tagRe = regexp.MustCompile(`<(/?)([A-Za-z][A-Za-z0-9-]*)([^>]*)>`)

// checkInert renders md with goldmark (raw HTML passed through, as GitHub
// would sanitise but not escape it) and fails on any element or attribute
// summary.md does not make itself, any comment, and any link.
func checkInert(t *testing.T, md []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := gfm.Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	h := out.String()
	if strings.Contains(h, "<!--") {
		t.Fatalf("raw HTML comment in rendered summary:\n%s", h)
	}
	for _, m := range tagRe.FindAllStringSubmatch(h, -1) {
		name, attrs := strings.ToLower(m[2]), m[3]
		if !allowedTags[name] {
			t.Fatalf("element <%s%s> in rendered summary.md:\n%s\nfrom Markdown:\n%s", m[2], attrs, h, md)
		}
		attrs = strings.TrimSpace(strings.TrimSuffix(attrs, "/"))
		switch {
		case attrs == "":
		case name == "input" && (attrs == `checked="" disabled="" type="checkbox"` || attrs == `disabled="" type="checkbox"`):
		case (name == "th" || name == "td") && regexp.MustCompile(`^style="text-align:(right|left|center)"$`).MatchString(attrs):
		default:
			t.Fatalf("attributes %q on <%s> in rendered summary.md:\n%s", attrs, name, h)
		}
	}
	return h
}

// visible is the text of rendered HTML, without tags, white space and
// backticks (a code span shows its content without them).
func visible(h string) string {
	h = html.UnescapeString(tagRe.ReplaceAllString(h, " "))
	return squash(h)
}

func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '`' || r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

// TestMarkdownInert renders summary.md with hostile text in every agent field
// through a GFM renderer: no element, attribute, comment or link comes from
// the agents, every table keeps its columns, and each text shows literally.
func TestMarkdownInert(t *testing.T) {
	for _, s := range hostileTexts {
		noted := hostileSynthesis(s)
		noted.Evidence, noted.EvidenceNote = nil, "`dir` "+s
		checkInert(t, RenderMarkdown(noted))
		md := RenderMarkdown(hostileSynthesis(s))
		h := checkInert(t, md)
		if want := squash(inert.Collapse(s)); !strings.Contains(visible(h), want) {
			t.Errorf("%q: rendered text lacks it literally\nMarkdown:\n%s\nHTML:\n%s", s, md, h)
		}
		// The timeline row keeps its six cells, the last being the summary.
		row := regexp.MustCompile(`(?s)<tr>\s*<td[^>]*>1</td>(.*?)</tr>`).FindStringSubmatch(h)
		if row == nil {
			t.Fatalf("%q: no timeline row in\n%s", s, h)
		}
		cells := regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(row[1], -1)
		if len(cells) != 5 || squash(html.UnescapeString(tagRe.ReplaceAllString(cells[4][1], ""))) != squash(inert.Collapse(s)) {
			t.Errorf("%q: timeline row cells %q; want 5 more, the last the summary", s, cells)
		}
	}
}

// TestMarkdownRawIsLive checks the check: the same hostile texts pasted raw
// into Markdown do make elements, links or broken tables.
func TestMarkdownRawIsLive(t *testing.T) {
	for _, s := range []string{"<script>alert(1)</script>", "[x](javascript:alert(1))", "<!-- c -->", "see https://evil.test"} {
		var out bytes.Buffer
		if err := gfm.Convert([]byte("- see "+s+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "<script") && !strings.Contains(out.String(), "href") && !strings.Contains(out.String(), "<!--") {
			t.Errorf("raw %q renders inert (%s): the renderer does not test what it should", s, out.String())
		}
	}
}

// FuzzMarkdownInert: whatever an agent writes in any field, summary.md
// renders it as text.
func FuzzMarkdownInert(f *testing.F) {
	for _, s := range hostileTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		md := RenderMarkdown(hostileSynthesis(s))
		h := checkInert(t, md)
		if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
			return // a renderer may replace these: the literal check does not apply
		}
		if want := squash(inert.Collapse(s)); !strings.Contains(visible(h), want) {
			t.Fatalf("%q: rendered text lacks it literally\nMarkdown:\n%s\nHTML:\n%s", s, md, h)
		}
	})
}

// TestGoldenSummariesInert renders the summary.md of every golden case
// through the GFM renderer.
func TestGoldenSummariesInert(t *testing.T) {
	for _, summary := range txtartest.Files(t, "testdata/golden/*.txtar", txtartest.Named("summary.md")) {
		checkInert(t, summary)
	}
}

// junitCaseNames is what the escaping tests read of a JUnit report: the
// names of the cases of each suite.
type junitCaseNames struct {
	Suites []struct {
		Cases []struct {
			Name string `xml:"name,attr"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestPlainTextOutputsKeepText: the CI outputs that are not Markdown carry
// agent text as text. JUnit is XML (encoding/xml escapes it; a reader gets
// the title back); an annotation is one workflow command that GitHub shows
// as plain text, with the title on one line and nothing Markdown-escaped.
func TestPlainTextOutputsKeepText(t *testing.T) {
	for _, s := range hostileTexts {
		syn := hostileSynthesis(s)
		var suites junitCaseNames
		if err := xml.Unmarshal(must(RenderJUnit(syn, "out")), &suites); err != nil {
			t.Fatalf("%q: JUnit is not XML: %v", s, err)
		}
		if got, want := suites.Suites[1].Cases[0].Name, inert.Collapse(s+": "+s); got != want {
			t.Errorf("%q: JUnit case name %q; want %q", s, got, want)
		}
		ann := string(RenderAnnotations(syn, "out"))
		if strings.Count(ann, "\n") != 2 || !strings.Contains(ann, EscapeData(inert.Collapse(s))) {
			t.Errorf("%q: annotations do not carry the text on one line each:\n%s", s, ann)
		}
	}
}

// TestMarkdownCodeInNote: a path that cmd names in Options.EvidenceNote
// through MarkdownCode shows in summary.md as one code span holding the
// path as written, whatever backticks or markup it holds. (A '|' in it
// makes mdText escape the backticks, as in a table cell: the path then
// shows literally between them, still inert; checkInert sees to that.)
func TestMarkdownCodeInNote(t *testing.T) {
	checkInert(t, RenderMarkdown(Synthesize(&Run{Input: "r"}, Options{EvidenceNote: MarkdownCode("x|y<b>")})))
	for _, path := range []string{"repo", "a`b", "`edge`", "<b>bold</b>", "two``ticks"} {
		s := Synthesize(&Run{Input: "r"}, Options{EvidenceNote: MarkdownCode(path) + " is not inside a git work tree"})
		h := checkInert(t, RenderMarkdown(s))
		want := "<code>" + html.EscapeString(path) + "</code> is not inside a git work tree"
		if !strings.Contains(strings.ReplaceAll(h, "&quot;", `"`), want) {
			t.Errorf("EvidenceNote with MarkdownCode(%q): want %q in\n%s", path, want, h)
		}
	}
}
