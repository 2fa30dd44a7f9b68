package parse

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is what a file in an output directory is (SPEC §1).
type Kind int

// Kinds of file in an output directory.
const (
	KindIgnored    Kind = iota // not agent output: ignored
	KindReport                 // {agent}[.{RUN}].md, a finished agent report
	KindPartial                // {agent}[.{RUN}].md.partial, an agent still writing
	KindAbort                  // {agent}[.{RUN}].abort or *.md.partial.aborted-*
	KindBus                    // findings.jsonl or peer-findings.jsonl
	KindOwn                    // summary.md or findings.json: fluxwatch's own reports
	KindSpecialist             // findings/{specialist}.yaml
	KindDesign                 // design/manifest.yaml
	KindManifest               // run.json: the run manifest (provenance)
	KindFeature                // MANIFEST.yaml: a feature directory's manifest (SPEC §4.3), named alone only
)

var kindNames = [...]string{"ignored", "report", "partial", "abort", "bus", "own", "specialist", "design", "manifest", "feature"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Input reports whether a file of kind k is an input of its run: anything
// the run directory's readers read (an agent file, the bus, a specialist,
// design or manifest file), so never a target an output may replace
// (SPEC §10). fluxwatch's own reports and ignored files are not.
func (k Kind) Input() bool { return k != KindIgnored && k != KindOwn }

// Name is what a file name says about a file of an output directory.
type Name struct {
	Kind  Kind
	Agent string // the agent (or specialist) name, for reports, partials, aborts and specialists
	Run   string // the run, for run-scoped names
}

// BusNames are the file names of the peer-findings bus, in reading order.
var BusNames = []string{"findings.jsonl", "peer-findings.jsonl"}

var runRe = regexp.MustCompile(`^[0-9a-fA-F-]{8,}$`)

// IsRun reports whether s is a run id as file names carry it (SPEC §1:
// [0-9a-fA-F-]{8,}).
func IsRun(s string) bool { return runRe.MatchString(s) }

// ClassifyName says what the file at rel (a slash-separated path relative to
// the output directory) is. Only the top level, findings/*.yaml and
// design/manifest.yaml are meaningful; everything else is KindIgnored.
func ClassifyName(rel string) Name {
	dir, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	if ignoredBase(base) {
		return Name{Kind: KindIgnored}
	}
	switch dir {
	case "":
	case "findings":
		if stem, ok := strings.CutSuffix(base, ".yaml"); ok && ValidName(stem) == nil {
			return Name{Kind: KindSpecialist, Agent: stem}
		}
		return Name{Kind: KindIgnored}
	case "design":
		if base == "manifest.yaml" {
			return Name{Kind: KindDesign}
		}
		return Name{Kind: KindIgnored}
	default:
		return Name{Kind: KindIgnored}
	}
	lower := strings.ToLower(base)
	switch {
	case lower == "summary.md" || lower == "findings.json":
		return Name{Kind: KindOwn}
	case base == BusNames[0] || base == BusNames[1]:
		return Name{Kind: KindBus}
	case base == ManifestFile:
		return Name{Kind: KindManifest}
	case strings.Contains(base, ".md.partial.aborted-"):
		stem := base[:strings.Index(base, ".md.partial.aborted-")]
		return agentName(KindAbort, stem)
	}
	for _, s := range []struct {
		suffix string
		kind   Kind
	}{{".md.partial", KindPartial}, {".abort", KindAbort}, {".md", KindReport}} {
		if stem, ok := strings.CutSuffix(base, s.suffix); ok {
			return agentName(s.kind, stem)
		}
	}
	return Name{Kind: KindIgnored}
}

func agentName(k Kind, stem string) Name {
	agent, run := stem, ""
	if i := strings.LastIndexByte(stem, '.'); i > 0 && runRe.MatchString(stem[i+1:]) {
		agent, run = stem[:i], stem[i+1:]
	}
	if ValidName(agent) != nil || strings.Contains(agent, ".") {
		// A dotted stem that is not {agent}.{RUN} (x.reactions, x.notes) is not
		// an agent report.
		return Name{Kind: KindIgnored}
	}
	return Name{Kind: k, Agent: agent, Run: run}
}

// NamedFile is what a file named alone (fluxwatch check FILE) is, from its
// slash-separated path: what ClassifyName says of its base name when that
// is an agent file (a report, a .partial, an abort marker); else a bus for
// any *.jsonl, a feature manifest for MANIFEST.yaml, a design manifest for
// design/manifest.yaml, a specialist file for any other *.yaml (Agent its
// stem); else a finished report of the name's stem, since a file named is
// read whatever its name (gpt-4.1.md, notes.md, review.txt). Check kept a
// classification of its own for this; ClassifyName is the one rule, this
// its fallback for a file outside a run directory's layout.
func NamedFile(name string) Name {
	dir, base := path.Split(name)
	switch n := ClassifyName(base); n.Kind {
	case KindReport, KindPartial, KindAbort:
		return n
	}
	switch {
	case strings.HasSuffix(base, ".jsonl"):
		return Name{Kind: KindBus}
	case base == "MANIFEST.yaml" || base == "MANIFEST.yml":
		return Name{Kind: KindFeature}
	case base == "manifest.yaml" && path.Base(strings.TrimSuffix(dir, "/")) == "design":
		return Name{Kind: KindDesign}
	}
	for _, s := range []string{".yaml", ".yml"} {
		if stem, ok := strings.CutSuffix(base, s); ok {
			return Name{Kind: KindSpecialist, Agent: stem}
		}
	}
	stem := base
	for _, s := range []string{".md.partial", ".md", ".abort"} {
		if t, ok := strings.CutSuffix(base, s); ok {
			stem = t
			break
		}
	}
	if stem == base {
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			stem = base[:i]
		}
	}
	return Name{Kind: KindReport, Agent: stem}
}

// NeverAgentOutput reports whether a file of this base name is never read as
// an agent's in a run directory: fluxwatch's own reports (summary.md,
// findings.json) and the names SPEC §1 lists as not agent output (editor,
// temporary and lock files, dotfiles, syntheses, triage, input, reactions).
func NeverAgentOutput(base string) bool {
	lower := strings.ToLower(base)
	return ignoredBase(base) || lower == "summary.md" || lower == "findings.json"
}

// DottedAgentFile reports whether base is an agent file's name but for a dot
// in its stem that is not {agent}.{RUN} (gpt-4.1.md, fd-a.notes.md): a name
// a run leaves out (KindIgnored), and says it leaves out, since it may hold
// a report.
func DottedAgentFile(base string) bool {
	if NeverAgentOutput(base) || ClassifyName(base).Kind != KindIgnored {
		return false
	}
	for _, suffix := range []string{".md.partial", ".abort", ".md"} {
		if stem, ok := strings.CutSuffix(base, suffix); ok {
			return strings.Contains(stem, ".") && ValidName(stem) == nil
		}
	}
	return false
}

// ignoredBase reports whether a base name is one SPEC §1 lists as not agent
// output, plus the synthesis-report names seen in real output directories.
func ignoredBase(base string) bool {
	lower := strings.ToLower(base)
	switch {
	case base == "" || base[0] == '.' || base[0] == '#':
		return true // dotfiles, .x.swp, #x#
	case strings.HasSuffix(base, "~") || strings.HasSuffix(lower, ".tmp") ||
		strings.HasSuffix(lower, ".lock") || strings.HasSuffix(lower, ".swp"):
		return true
	case strings.HasSuffix(lower, ".reactions.md") || strings.HasSuffix(lower, ".reactions.error.md"):
		return true
	case lower == "input.md" || lower == "synthesis.md" || lower == "synthesis.json":
		return true
	case strings.HasPrefix(lower, "triage") && strings.HasSuffix(lower, ".md"):
		return true
	case strings.HasPrefix(lower, "synthesis-") || dateSynthesisRe.MatchString(lower):
		return true
	}
	return false
}

var dateSynthesisRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-synthesis\.(md|json)$`)

// ErrBadName is returned by ValidName for a name that could escape a directory
// or confuse a terminal.
var ErrBadName = errors.New("invalid name")

// ValidName checks an agent or specialist name: names are data, not paths
// (SPEC §1). It rejects the empty name, ".", "..", and names holding '/', '\',
// "..", NUL or control characters, invisible formatting characters (bidi
// overrides, zero-width, line separators) or bytes that are not UTF-8. The
// error wraps ErrBadName.
func ValidName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: %s", ErrBadName, "name is empty")
	case name == "." || strings.Contains(name, ".."):
		return fmt.Errorf("%w: %s", ErrBadName, `name contains ".."`)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%w: %s", ErrBadName, "name contains a path separator")
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: %s", ErrBadName, "name is not valid UTF-8")
	}
	for _, r := range name {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Errorf("%w: %s", ErrBadName, "name contains a control character")
		case unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			// Bidi overrides, zero-width and line separators: they change
			// how a terminal or a page shows the text around the name.
			return fmt.Errorf("%w: name contains an invisible formatting character (%U)", ErrBadName, r)
		}
	}
	return nil
}

// DefaultIgnore are the agent names (globs, matched without case) of files
// that look like reports but are a run's own documents: the task, the
// prompt, its input, notes for people. A run lists them as ignored, never
// as agents (so they are never malformed agents that grow every
// denominator). AgentFilter.Include and Expect let an agent of such a name
// back in.
var DefaultIgnore = []string{
	"readme", "readme-*", "task", "tasks", "task-*", "prompt*", "input*",
	"instructions*", "context", "agents", "claude", "notes", "todo",
	"changelog", "license", "contributing",
}

// AgentFilter says which agent files of a run directory are agents (the
// agents: include and ignore of .fluxwatch.yaml, and --expect). Globs are
// path.Match patterns matched against the agent name, without case: the
// name of fd-a.RUN.md, fd-a.md.partial and fd-a.abort is fd-a.
type AgentFilter struct {
	// Include, when not empty, are the only agents: any other agent file
	// is ignored. It takes the place of DefaultIgnore.
	Include []string
	// Ignore are agent names ignored beside DefaultIgnore (or Include).
	Ignore []string
	// Expect are agent names always read (--expect): the one exception to
	// Ignore.
	Expect []string
}

// Ignores reports whether the file of agent is not an agent's: an
// expected agent never is; one Ignore matches is; with Include, one it
// does not match is; else one DefaultIgnore matches is.
func (f AgentFilter) Ignores(agent string) bool {
	switch {
	case slices.Contains(f.Expect, agent):
		return false
	case matchAny(f.Ignore, agent):
		return true
	case len(f.Include) > 0:
		return !matchAny(f.Include, agent)
	}
	return matchAny(DefaultIgnore, agent)
}

func matchAny(globs []string, name string) bool {
	name = strings.ToLower(name)
	for _, g := range globs {
		if ok, _ := path.Match(strings.ToLower(g), name); ok {
			return true
		}
	}
	return false
}

// ValidGlob checks an agents include or ignore pattern (path.Match syntax;
// an agent name holds no '/').
func ValidGlob(g string) error {
	if g == "" {
		return errors.New("empty pattern")
	}
	if strings.Contains(g, "/") {
		return errors.New("a pattern matches an agent name, which holds no '/'")
	}
	if _, err := path.Match(g, ""); err != nil {
		return err
	}
	return nil
}
