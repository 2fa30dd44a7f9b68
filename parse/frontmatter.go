package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// frontMatter is what a report's YAML front matter says.
type frontMatter struct {
	verdict     string // verdict: as written
	verdictLine int
	hasIssues   bool // an issues: (or improvements:) list: the legacy index
	findings    []Finding
	improve     []Improvement
	envelope    map[string]string
	provenance  Provenance
	diags       []Diagnostic
}

// Provenance is what a report declares of how it was made (front matter
// keys in parentheses); "" or 0 when it does not say: unknown is never
// guessed.
type Provenance struct {
	Model       string // model
	PromptHash  string // prompt_hash (prompt_sha256)
	ToolVersion string // tool_version (tool)
	Commit      string // commit (git_commit)
	Repository  string // repository (repository_url, repo_url): where Commit is
	Started     string // started (start_time, started_at)
	Finished    string // finished (end_time, finished_at)
	RunID       string // run_id
	// Tokens is the token use: tokens (total_tokens), or a usage: mapping
	// with total_tokens, else input_tokens + output_tokens; 0 when unstated
	// or not a whole number.
	Tokens int64
}

// provenanceKeys are the front matter keys of each Provenance field, the
// preferred first.
var provenanceKeys = []struct {
	keys []string
	set  func(*Provenance, string)
}{
	{[]string{"model"}, func(p *Provenance, v string) { p.Model = v }},
	{[]string{"prompt_hash", "prompt_sha256"}, func(p *Provenance, v string) { p.PromptHash = v }},
	{[]string{"tool_version", "tool"}, func(p *Provenance, v string) { p.ToolVersion = v }},
	{[]string{"commit", "git_commit"}, func(p *Provenance, v string) { p.Commit = v }},
	{[]string{"repository", "repository_url", "repo_url"}, func(p *Provenance, v string) { p.Repository = v }},
	{[]string{"started", "start_time", "started_at"}, func(p *Provenance, v string) { p.Started = v }},
	{[]string{"finished", "end_time", "finished_at"}, func(p *Provenance, v string) { p.Finished = v }},
	{[]string{"run_id"}, func(p *Provenance, v string) { p.RunID = v }},
}

// readProvenance reads Provenance from the top-level scalars of front matter
// and the scalar fields of its usage: mapping (hasUsage: it has one).
func readProvenance(scalars map[string]string, usage []fmField, hasUsage bool) Provenance {
	var p Provenance
	for _, pk := range provenanceKeys {
		for _, k := range pk.keys {
			if v := strings.TrimSpace(scalars[k]); v != "" {
				pk.set(&p, v)
				break
			}
		}
	}
	p.Tokens = tokenCount(scalars["tokens"], scalars["total_tokens"])
	if p.Tokens == 0 && hasUsage {
		if p.Tokens = tokenCount(fieldOf(usage, "total_tokens", "tokens")); p.Tokens == 0 {
			in, out := tokenCount(fieldOf(usage, "input_tokens")), tokenCount(fieldOf(usage, "output_tokens"))
			if in > 0 && out > 0 {
				p.Tokens = in + out
			}
		}
	}
	return p
}

// digitGrouping drops the "," and "_" that group a number's digits. Made
// once: a Replacer made at each call was 30 MB of garbage at 8,000 agents.
var digitGrouping = strings.NewReplacer(",", "", "_", "")

// tokenCount returns the first of vs that is a positive whole number
// (digits, "_" or "," grouping allowed), else 0.
func tokenCount(vs ...string) int64 {
	for _, v := range vs {
		v = digitGrouping.Replace(strings.TrimSpace(v))
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// envelopeKeys mark front matter as a message envelope (SPEC §2.2).
var envelopeKeys = map[string]bool{
	"message_id": true, "correlation_id": true, "message_type": true, "source_document": true,
}

const maxFrontMatterBytes = 256 << 10

// fmEntry is one top-level key of front matter, as much of it as the
// readers below use: its scalar value, the scalar fields of a mapping, the
// items of a sequence. Lines are the report's.
type fmEntry struct {
	key     string
	keyLine int
	alias   bool      // the key or the value is a YAML alias
	kind    yaml.Kind // of the value
	value   string    // a scalar value
	line    int       // of the value
	fields  []fmField // a mapping's scalar fields, in order
	items   []fmItem  // a sequence's items
}

// fmItem is one item of a sequence: the scalar fields of a mapping (nil
// for any other item), in order.
type fmItem struct {
	line   int
	alias  bool
	fields []fmField
}

// fmField is one key of a mapping whose value is a scalar.
type fmField struct{ key, value string }

// fieldOf returns, trimmed, the value of the first of keys that fs holds
// (the last field of that key, as a later key replaces an earlier one), or
// "".
func fieldOf(fs []fmField, keys ...string) string {
	for _, k := range keys {
		for i := len(fs) - 1; i >= 0; i-- {
			if fs[i].key == k {
				return strings.TrimSpace(fs[i].value)
			}
		}
	}
	return ""
}

// readFrontMatter decodes lines[start+1:end-1] (the text between the ---
// lines). Aliases are never expanded: front matter has no use for them, and
// a YAML alias bomb must not exhaust memory.
//
// Front matter in the plain shape most reports write (keys with one-line
// values, lists of such mappings; see fastFrontMatter) is read without a
// YAML decoder; anything else goes through yaml.v3 (frontMatterYAML, the
// reference), and both give the same entries to one reader (read).
func readFrontMatter(lines []line, start, end int) frontMatter {
	return readFrontMatterWith(lines, start, end, true)
}

// readFrontMatterWith is readFrontMatter, with the reader without a YAML
// decoder tried first when fast is set (the tests read without it).
func readFrontMatterWith(lines []line, start, end int, fast bool) frontMatter {
	var fm frontMatter
	body := lines[start+1 : end-1]
	n := 0
	for _, l := range body {
		n += len(l.text) + 1
	}
	if n > maxFrontMatterBytes {
		fm.diags = append(fm.diags, diag(lines[start].num, LevelWarning, "front matter over %d KiB: not read", maxFrontMatterBytes>>10))
		return fm
	}
	off := lines[start].num // YAML's lines count from the line after the first ---
	var entries []fmEntry
	ok := false
	if fast {
		entries, ok = fastFrontMatter(body, off)
	}
	if !ok {
		var d *Diagnostic
		if entries, d = frontMatterYAML(body, n, off); d != nil {
			fm.diags = append(fm.diags, *d)
			return fm
		}
	}
	fm.read(entries)
	return fm
}

// frontMatterYAML decodes body (n bytes with its newlines) with yaml.v3:
// the entries of its top-level mapping (none when it is not one), or the
// diagnostic of YAML it cannot decode.
func frontMatterYAML(body []line, n, off int) ([]fmEntry, *Diagnostic) {
	b := make([]byte, 0, n)
	for _, l := range body {
		b = append(b, l.text...)
		b = append(b, '\n')
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		d := diag(off, LevelWarning, "front matter is not valid YAML: %s", inert.Collapse(err.Error()))
		return nil, &d
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	root := doc.Content[0]
	entries := make([]fmEntry, 0, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		e := fmEntry{key: k.Value, keyLine: off + k.Line, alias: k.Kind == yaml.AliasNode || v.Kind == yaml.AliasNode,
			kind: v.Kind, value: v.Value, line: off + v.Line, fields: scalarFields(v)}
		if v.Kind == yaml.SequenceNode {
			e.items = make([]fmItem, len(v.Content))
			for j, it := range v.Content {
				e.items[j] = fmItem{line: off + it.Line, alias: it.Kind == yaml.AliasNode, fields: scalarFields(it)}
			}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// scalarFields lists the keys of mapping n whose values are scalars, in
// order; nil when n is not a mapping.
func scalarFields(n *yaml.Node) []fmField {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	fs := make([]fmField, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind == yaml.ScalarNode {
			fs = append(fs, fmField{n.Content[i].Value, v.Value})
		}
	}
	return fs
}

// read reads the verdict, the legacy index, the provenance and the
// envelope from the top-level entries of front matter.
func (fm *frontMatter) read(entries []fmEntry) {
	scalars := map[string]string{}
	var usage []fmField
	hasUsage := false
	var status *fmEntry // status: (or outcome:), a verdict only in a review's front matter
	review := false
	for i := range entries {
		e := &entries[i]
		if e.alias {
			fm.diags = append(fm.diags, diag(e.keyLine, LevelWarning, "front matter uses a YAML alias: ignored"))
			continue
		}
		switch e.key {
		case "verdict", "review_status", "review-status", "decision":
			// A review tool's front matter may name its verdict
			// review_status or decision; verdict wins.
			if e.kind == yaml.ScalarNode && (e.key == "verdict" || fm.verdict == "") {
				fm.verdict, fm.verdictLine = strings.TrimSpace(e.value), e.line
			}
		case "status", "outcome", "recommendation", "review_decision", "review-decision":
			if e.kind == yaml.ScalarNode && status == nil {
				status = e
			}
		case "issues", "findings":
			review = true
			if e.kind == yaml.SequenceNode {
				fm.hasIssues = true
				fm.readIssues(e.items)
			}
		case "usage":
			if e.kind == yaml.MappingNode {
				usage, hasUsage = e.fields, true
			}
		case "improvements":
			if e.kind == yaml.SequenceNode {
				fm.hasIssues = true
				fm.readImprovements(e.items)
			}
		}
		if e.kind == yaml.ScalarNode {
			scalars[e.key] = e.value
		}
		review = review || reviewKeys[e.key]
	}
	if fm.verdict == "" && status != nil && review {
		// "status: changes_requested" beside "agent:" or "reviewer:":
		// the review's verdict; a design document's "status: rejected"
		// beside "title:" and "owner:" is the document's state.
		if _, ok := NormalizeVerdict(status.value); ok {
			fm.verdict, fm.verdictLine = strings.TrimSpace(status.value), status.line
		}
	}
	fm.provenance = readProvenance(scalars, usage, hasUsage)
	for k := range scalars {
		if envelopeKeys[k] {
			fm.envelope = scalars
			break
		}
	}
}

// reviewKeys are the front matter keys that say the file is a review:
// with one of them, a status: that names a verdict declares it.
var reviewKeys = map[string]bool{"agent": true, "reviewer": true, "reviewers": true, "reviewed_by": true,
	"review": true, "review_type": true, "review_of": true, "pr": true, "pull_request": true, "findings": true,
	"issues": true, "severity_counts": true, "verdict": true}

func (fm *frontMatter) readIssues(items []fmItem) {
	for _, it := range items {
		line := it.line
		if it.alias {
			fm.diags = append(fm.diags, diag(line, LevelWarning, "front-matter issue is a YAML alias: not expanded, skipped"))
			continue
		}
		f := it.fields
		title := fieldOf(f, "title", "summary", "description")
		sevText := fieldOf(f, "severity", "priority")
		sev, class := severityToken(sevText, true)
		switch {
		case class == sevImprovement:
			fm.improve = append(fm.improve, Improvement{ID: fieldOf(f, "id"), Section: fieldOf(f, "section", "area"), Title: title, Line: line})
			continue
		case title == "":
			fm.diags = append(fm.diags, diag(line, LevelWarning, "front-matter issue without a title: skipped"))
			continue
		case class == sevNone:
			if s, ok := severityPrefix(fieldOf(f, "id")); ok && IsFindingID(fieldOf(f, "id")) {
				sev = s
			} else {
				fm.diags = append(fm.diags, diag(line, LevelWarning, "front-matter issue without a known severity (%q): skipped", sevText))
				continue
			}
		}
		if sevText != string(sev) {
			fm.diags = append(fm.diags, diag(line, LevelInfo, "severity %q read as %s", sevText, sev))
		}
		fm.findings = append(fm.findings, Finding{
			Severity: sev, ID: fieldOf(f, "id"), Section: fieldOf(f, "section", "area"), Title: title,
			Line: line, Confidence: ConfidenceHigh,
		})
	}
}

func (fm *frontMatter) readImprovements(items []fmItem) {
	for _, it := range items {
		f := it.fields
		fm.improve = append(fm.improve, Improvement{
			ID: fieldOf(f, "id"), Section: fieldOf(f, "section", "area"),
			Title: fieldOf(f, "title", "summary", "description"), Line: it.line,
		})
	}
}

// fastFrontMatter reads body, front matter whose first line is line off+1,
// without a YAML decoder when every line is of the plain shape most reports
// write, and reports whether it did; the entries are those yaml.v3 gives
// (frontMatterYAML, which TestFastFrontMatterIsYAML and
// FuzzFastFrontMatter hold it to). The shape: top-level `key: value` lines
// (`key: []` and `key: {}` too);
// a `key:` opening a block sequence (`- key: value` items continued by
// `key: value` lines under the first key, or `- value` items) or a block
// mapping of `key: value` lines; values on one line, plain or quoted
// without escapes; empty lines between. Anything else (comments, flow
// collections, anchors, tags, block scalars, empty values, tabs, deeper
// nesting, characters YAML treats apart) is left to yaml.v3.
func fastFrontMatter(body []line, off int) ([]fmEntry, bool) {
	var entries []fmEntry
	for i := 0; i < len(body); {
		t := body[i].text
		if t == "" {
			i++
			continue
		}
		if !fmPlainText(t) {
			return nil, false
		}
		key, rest, ok := fmKey(t)
		if !ok {
			return nil, false
		}
		ln := off + i + 1
		switch rest {
		case "[]": // an empty list, as `improvements: []` says there are none
			entries = append(entries, fmEntry{key: key, keyLine: ln, kind: yaml.SequenceNode, line: ln})
			i++
			continue
		case "{}":
			entries = append(entries, fmEntry{key: key, keyLine: ln, kind: yaml.MappingNode, line: ln})
			i++
			continue
		}
		if rest != "" {
			v, ok := fmScalar(rest)
			if !ok {
				return nil, false
			}
			entries = append(entries, fmEntry{key: key, keyLine: ln, kind: yaml.ScalarNode, value: v, line: ln})
			i++
			continue
		}
		j := i + 1
		for j < len(body) && body[j].text == "" {
			j++
		}
		if j == len(body) {
			return nil, false // an empty value
		}
		nt := body[j].text
		ind := fmIndent(nt)
		e := fmEntry{key: key, keyLine: ln, line: off + j + 1}
		switch {
		case strings.HasPrefix(nt[ind:], "- "):
			e.kind = yaml.SequenceNode
			i, ok = fmSequence(body, j, ind, off, &e)
		case ind > 0:
			e.kind = yaml.MappingNode
			i, ok = fmMapping(body, j, ind, &e.fields)
		default:
			return nil, false // an empty value
		}
		if !ok {
			return nil, false
		}
		entries = append(entries, e)
	}
	return entries, true
}

// fmSequence reads the block sequence whose items start at column ind from
// body[i] into e; it returns the index of the line past it.
func fmSequence(body []line, i, ind, off int, e *fmEntry) (int, bool) {
	for i < len(body) {
		t := body[i].text
		if t == "" {
			i++
			continue
		}
		n := fmIndent(t)
		if n < ind || n == 0 && !strings.HasPrefix(t, "- ") {
			if n != 0 {
				return i, false
			}
			return i, true // the next top-level key
		}
		if n != ind || !strings.HasPrefix(t[n:], "- ") || !fmPlainText(t) {
			return i, false
		}
		item := t[n+2:]
		it := fmItem{line: off + i + 1}
		key, rest, ok := fmKey(item)
		if !ok {
			// A scalar item.
			if _, ok := fmScalar(item); !ok {
				return i, false
			}
			e.items = append(e.items, it)
			i++
			continue
		}
		v, ok := fmScalar(rest)
		if !ok {
			return i, false
		}
		it.fields = append(it.fields, fmField{key, v})
		i++
		// The item's other keys, under its first.
		for i < len(body) {
			t := body[i].text
			if t == "" {
				i++
				continue
			}
			if fmIndent(t) <= ind {
				break
			}
			if fmIndent(t) != ind+2 || !fmPlainText(t) {
				return i, false
			}
			key, rest, ok := fmKey(t[ind+2:])
			if !ok {
				return i, false
			}
			v, ok := fmScalar(rest)
			if !ok {
				return i, false
			}
			it.fields = append(it.fields, fmField{key, v})
			i++
		}
		e.items = append(e.items, it)
	}
	return i, true
}

// fmMapping reads the block mapping of scalars whose keys start at column
// ind (> 0) from body[i] into fields; it returns the index of the line past
// it.
func fmMapping(body []line, i, ind int, fields *[]fmField) (int, bool) {
	for i < len(body) {
		t := body[i].text
		if t == "" {
			i++
			continue
		}
		n := fmIndent(t)
		if n == 0 {
			return i, true // the next top-level key
		}
		if n != ind || !fmPlainText(t) {
			return i, false
		}
		key, rest, ok := fmKey(t[n:])
		if !ok {
			return i, false
		}
		v, ok := fmScalar(rest)
		if !ok {
			return i, false
		}
		*fields = append(*fields, fmField{key, v})
		i++
	}
	return i, true
}

// fmIndent is how many spaces t opens with.
func fmIndent(t string) int {
	n := 0
	for n < len(t) && t[n] == ' ' {
		n++
	}
	return n
}

// fmKey splits `key: rest` or `key:` at the start of t, where key is a
// plain word ([A-Za-z0-9_] then [A-Za-z0-9_.-], at most 128 bytes) and
// rest is what follows the colon and its spaces ("" for nothing).
func fmKey(t string) (key, rest string, ok bool) {
	i := 0
	for i < len(t) && i <= 128 {
		c := t[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || i > 0 && (c == '.' || c == '-') {
			i++
			continue
		}
		break
	}
	if i == 0 || i > 128 || i == len(t) || t[i] != ':' {
		return "", "", false
	}
	key, rest = t[:i], t[i+1:]
	if rest == "" {
		return key, "", true
	}
	if rest[0] != ' ' {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return "", "", false // spaces, then nothing: left to yaml.v3
	}
	return key, rest, true
}

// fmScalar returns the value of the one-line scalar s (no leading space):
// double-quoted without escapes or quotes inside, single-quoted without
// quotes inside, or plain (not opening with an indicator, no ": ", " #" or
// final ":", no final space).
func fmScalar(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	switch s[0] {
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' || strings.ContainsAny(s[1:len(s)-1], "\"\\") {
			return "", false
		}
		return s[1 : len(s)-1], true
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' || strings.IndexByte(s[1:len(s)-1], '\'') >= 0 {
			return "", false
		}
		return s[1 : len(s)-1], true
	}
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@` ", s[0]) >= 0 || s[len(s)-1] == ' ' || s[len(s)-1] == ':' ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return "", false
	}
	return s, true
}

// fmPlainText reports whether t holds only characters YAML reads as they
// stand: printable ASCII, and valid UTF-8 past it but for the C1 controls,
// NEL, the line and paragraph separators, the byte order mark and the
// non-characters U+FFFE and U+FFFF. Tabs are left to yaml.v3 too.
func fmPlainText(t string) bool {
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if r == utf8.RuneError || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		i += size
	}
	return true
}
