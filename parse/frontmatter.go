package parse

import (
	"strconv"
	"strings"

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
// and its usage: mapping (nil without one).
func readProvenance(scalars map[string]string, usage *yaml.Node) Provenance {
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
	if p.Tokens == 0 && usage != nil {
		u := mappingFields(usage)
		if p.Tokens = tokenCount(field(u, "total_tokens", "tokens")); p.Tokens == 0 {
			in, out := tokenCount(field(u, "input_tokens")), tokenCount(field(u, "output_tokens"))
			if in > 0 && out > 0 {
				p.Tokens = in + out
			}
		}
	}
	return p
}

// tokenCount returns the first of vs that is a positive whole number
// (digits, "_" or "," grouping allowed), else 0.
func tokenCount(vs ...string) int64 {
	for _, v := range vs {
		v = strings.NewReplacer(",", "", "_", "").Replace(strings.TrimSpace(v))
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

// readFrontMatter decodes lines[start+1:end-1] (the text between the ---
// lines). Aliases are never expanded: front matter has no use for them, and
// a YAML alias bomb must not exhaust memory.
func readFrontMatter(lines []line, start, end int) frontMatter {
	var fm frontMatter
	var b strings.Builder
	for _, l := range lines[start+1 : end-1] {
		b.WriteString(l.text)
		b.WriteByte('\n')
		if b.Len() > maxFrontMatterBytes {
			fm.diags = append(fm.diags, diag(lines[start].num, LevelWarning, "front matter over %d KiB: not read", maxFrontMatterBytes>>10))
			return fm
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		fm.diags = append(fm.diags, diag(lines[start].num, LevelWarning, "front matter is not valid YAML: %s", inert.Collapse(err.Error())))
		return fm
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fm
	}
	off := lines[start].num // node lines are relative to the line after the first ---
	root := doc.Content[0]
	scalars := map[string]string{}
	var usage *yaml.Node
	var status *yaml.Node // status: (or outcome:), a verdict only in a review's front matter
	review := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind == yaml.AliasNode || k.Kind == yaml.AliasNode {
			fm.diags = append(fm.diags, diag(off+k.Line, LevelWarning, "front matter uses a YAML alias: ignored"))
			continue
		}
		switch k.Value {
		case "verdict", "review_status", "review-status", "decision":
			// A review tool's front matter may name its verdict
			// review_status or decision; verdict wins.
			if v.Kind == yaml.ScalarNode && (k.Value == "verdict" || fm.verdict == "") {
				fm.verdict, fm.verdictLine = strings.TrimSpace(v.Value), off+v.Line
			}
		case "status", "outcome", "recommendation", "review_decision", "review-decision":
			if v.Kind == yaml.ScalarNode && status == nil {
				status = v
			}
		case "issues", "findings":
			review = true
			if v.Kind == yaml.SequenceNode {
				fm.hasIssues = true
				fm.readIssues(v, off)
			}
		case "usage":
			if v.Kind == yaml.MappingNode {
				usage = v
			}
		case "improvements":
			if v.Kind == yaml.SequenceNode {
				fm.hasIssues = true
				fm.readImprovements(v, off)
			}
		}
		if v.Kind == yaml.ScalarNode {
			scalars[k.Value] = v.Value
		}
		review = review || reviewKeys[k.Value]
	}
	if fm.verdict == "" && status != nil && review {
		// "status: changes_requested" beside "agent:" or "reviewer:":
		// the review's verdict; a design document's "status: rejected"
		// beside "title:" and "owner:" is the document's state.
		if _, ok := NormalizeVerdict(status.Value); ok {
			fm.verdict, fm.verdictLine = strings.TrimSpace(status.Value), off+status.Line
		}
	}
	fm.provenance = readProvenance(scalars, usage)
	for k := range scalars {
		if envelopeKeys[k] {
			fm.envelope = scalars
			break
		}
	}
	return fm
}

// reviewKeys are the front matter keys that say the file is a review:
// with one of them, a status: that names a verdict declares it.
var reviewKeys = map[string]bool{"agent": true, "reviewer": true, "reviewers": true, "reviewed_by": true,
	"review": true, "review_type": true, "review_of": true, "pr": true, "pull_request": true, "findings": true,
	"issues": true, "severity_counts": true, "verdict": true}

func mappingFields(n *yaml.Node) map[string]*yaml.Node {
	m := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		return m
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind == yaml.ScalarNode {
			m[n.Content[i].Value] = v
		}
	}
	return m
}

func field(m map[string]*yaml.Node, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return strings.TrimSpace(v.Value)
		}
	}
	return ""
}

func (fm *frontMatter) readIssues(seq *yaml.Node, off int) {
	for _, it := range seq.Content {
		line := off + it.Line
		if it.Kind == yaml.AliasNode {
			fm.diags = append(fm.diags, diag(line, LevelWarning, "front-matter issue is a YAML alias: not expanded, skipped"))
			continue
		}
		f := mappingFields(it)
		title := field(f, "title", "summary", "description")
		sevText := field(f, "severity", "priority")
		sev, class := severityToken(sevText, true)
		switch {
		case class == sevImprovement:
			fm.improve = append(fm.improve, Improvement{ID: field(f, "id"), Section: field(f, "section", "area"), Title: title, Line: line})
			continue
		case title == "":
			fm.diags = append(fm.diags, diag(line, LevelWarning, "front-matter issue without a title: skipped"))
			continue
		case class == sevNone:
			if s, ok := severityPrefix(field(f, "id")); ok && IsFindingID(field(f, "id")) {
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
			Severity: sev, ID: field(f, "id"), Section: field(f, "section", "area"), Title: title,
			Line: line, Confidence: ConfidenceHigh,
		})
	}
}

func (fm *frontMatter) readImprovements(seq *yaml.Node, off int) {
	for _, it := range seq.Content {
		f := mappingFields(it)
		fm.improve = append(fm.improve, Improvement{
			ID: field(f, "id"), Section: field(f, "section", "area"),
			Title: field(f, "title", "summary", "description"), Line: off + it.Line,
		})
	}
}
