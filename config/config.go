package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/fluxwatch/fluxwatch/synth"
	"go.yaml.in/yaml/v3"
)

// Name is the file name Find looks for.
const Name = ".fluxwatch.yaml"

// MaxSize bounds the size of a configuration file.
const MaxSize = 1 << 20

// Config is the content of a .fluxwatch.yaml. The zero Config is the
// configuration without a file: every setting at its default.
type Config struct {
	// Path is the file read, "" for none.
	Path string `yaml:"-" json:"-"`
	// Root is the directory every path of the file must stay in (SPEC
	// §10: the repository it belongs to), set by the caller that found
	// the file: the top of the git work tree holding it, else its own
	// directory. "" is the file's directory.
	Root         string        `yaml:"-" json:"-"`
	Gate         Gate          `yaml:"gate" json:"gate"`
	Baseline     string        `yaml:"baseline,omitempty" json:"baseline,omitempty"`
	Output       Output        `yaml:"output" json:"output"`
	Evidence     Evidence      `yaml:"evidence" json:"evidence"`
	Agents       Agents        `yaml:"agents" json:"agents"`
	Suppressions []Suppression `yaml:"suppressions" json:"suppressions"`
	// lines are the lines of the path settings, by key, for messages.
	lines map[string]int
}

// PathKeys are the settings that hold a path: each is resolved against
// the file's directory and must stay inside Root (Config.Local). The
// output: keys of the report files are those of report.Formats.
var PathKeys = pathKeys()

func pathKeys() []string {
	keys := []string{"baseline", "output.out"}
	for _, f := range report.FileFormats() {
		keys = append(keys, "output."+f.Config)
	}
	return append(keys, "evidence.repo")
}

// Gate is when synth and watch exit 1 (--fail-on, --fail-on-new,
// --allow-unreadable).
type Gate struct {
	FailOn    string `yaml:"fail-on,omitempty" json:"fail-on,omitempty"`
	FailOnNew string `yaml:"fail-on-new,omitempty" json:"fail-on-new,omitempty"`
	// AllowUnreadable true lets the gate pass reports that could not be
	// fully read; nil leaves the default (false: they trip it).
	AllowUnreadable *bool `yaml:"allow-unreadable,omitempty" json:"allow-unreadable,omitempty"`
}

// Output is where the reports go: out (--out), and the report files by
// the Config key of their format in report.Formats (sarif: --sarif, …),
// which are the only other keys output: takes.
type Output struct {
	Out   string            `yaml:"out,omitempty" json:"out,omitempty"`
	Files map[string]string `yaml:",inline" json:"-"`
}

// MarshalJSON writes o as the file holds it: the files beside out.
func (o Output) MarshalJSON() ([]byte, error) {
	m := make(map[string]string, len(o.Files)+1)
	for k, v := range o.Files {
		m[k] = v
	}
	if o.Out != "" {
		m["out"] = o.Out
	}
	return json.Marshal(m)
}

// Evidence is how evidence is checked (--repo, --no-evidence).
type Evidence struct {
	Repo string `yaml:"repo,omitempty" json:"repo,omitempty"`
	// Check false turns checking off; nil leaves the default (on).
	Check *bool `yaml:"check,omitempty" json:"check,omitempty"`
}

// Agents are the agent rules (--expect, --strict-run, --dedup) and which
// files are agents: Include and Ignore are globs of agent names
// (parse.AgentFilter).
type Agents struct {
	Include   []string `yaml:"include,omitempty" json:"include,omitempty"`
	Ignore    []string `yaml:"ignore,omitempty" json:"ignore,omitempty"`
	Expect    []string `yaml:"expect,omitempty" json:"expect,omitempty"`
	StrictRun *bool    `yaml:"strict-run,omitempty" json:"strict-run,omitempty"`
	Dedup     string   `yaml:"dedup,omitempty" json:"dedup,omitempty"`
}

// Suppression is one entry of suppressions:. Line is where it starts.
type Suppression struct {
	Fingerprint string `yaml:"fingerprint,omitempty" json:"fingerprint,omitempty"`
	Match       Match  `yaml:"match,omitempty" json:"match,omitzero"`
	Reason      string `yaml:"reason" json:"reason"`
	Expires     string `yaml:"expires,omitempty" json:"expires,omitempty"`
	Line        int    `yaml:"-" json:"line"`
}

// Match is the match rule of a suppression.
type Match struct {
	Title    string `yaml:"title,omitempty" json:"title,omitempty"`
	File     string `yaml:"file,omitempty" json:"file,omitempty"`
	Severity string `yaml:"severity,omitempty" json:"severity,omitempty"`
}

// fields is the shape of a mapping: its keys and the shape of each value
// (nil: a scalar or a list of scalars, checked by decoding).
type fields map[string]any

// listOf is the shape of a sequence of mappings.
type listOf struct{ elem fields }

// scalars is the shape of a list of plain values (one value is a list of
// one).
type scalars struct{}

// shape is the shape of a configuration file, read from the yaml tags of
// Config: the structs are the one list of keys.
var shape = withOutputFiles(shapeOf(reflect.TypeFor[Config]()).(fields))

// withOutputFiles adds the keys of Output.Files to sh: the Config key of
// every file format of report.Formats.
func withOutputFiles(sh fields) fields {
	out := sh["output"].(fields)
	for _, f := range report.FileFormats() {
		out[f.Config] = nil
	}
	return sh
}

// shapeOf returns the shape of a value of type t: a struct is the mapping
// of its tagged fields, a slice of structs a listOf, another slice scalars,
// anything else a value.
func shapeOf(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Struct:
		f := fields{}
		for i := range t.NumField() {
			if key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); key != "" && key != "-" {
				f[key] = shapeOf(t.Field(i).Type)
			}
		}
		return f
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return listOf{shapeOf(t.Elem()).(fields)}
		}
		return scalars{}
	}
	return nil
}

// Find returns the configuration file that applies in dir: the first
// .fluxwatch.yaml in dir or a directory above it, up to and including top
// (the top of the git work tree holding dir). With top "" (dir is in no
// work tree) only dir itself is looked in. It returns "" when there is
// none; the error is one of reading a directory entry.
//
// run, when not "", is the run directory, which agents write (SPEC §10):
// a file in it or below it (or one that is a link there) is never the
// configuration. Find passes over such files and returns them in ignored,
// with run's own file even when the search does not pass it, for the
// caller to warn of.
func Find(dir, top, run string) (path string, ignored []string, err error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	stop := d
	if top != "" {
		if stop, err = filepath.Abs(top); err != nil {
			return "", nil, err
		}
	}
	inRun := func(string) bool { return false }
	if run != "" {
		if realRun, err := fsio.RealPath(run); err == nil {
			inRun = func(p string) bool { return within(realRun, p) }
		}
		if own := filepath.Join(run, Name); exists(own) {
			ignored = append(ignored, own)
		}
	}
	for {
		p := filepath.Join(d, Name)
		fi, err := os.Stat(p)
		switch {
		case err == nil && inRun(p):
			if !slices.ContainsFunc(ignored, func(q string) bool { return sameFile(p, q) }) {
				ignored = append(ignored, p)
			}
		case err == nil && fi.Mode().IsRegular():
			return p, ignored, nil
		case err == nil:
			return "", ignored, fmt.Errorf("%s: not a regular file", p)
		case !errors.Is(err, os.ErrNotExist):
			return "", ignored, err
		}
		parent := filepath.Dir(d)
		if d == stop || parent == d || !strings.HasPrefix(d, stop) {
			return "", ignored, nil
		}
		d = parent
	}
}

// exists reports whether there is anything at path (a dangling link
// included).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// sameFile reports whether a and b are one existing file.
func sameFile(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// within reports whether path really lies in dir (a real path, see
// fsio.RealPath) or is dir itself.
func within(dir, path string) bool {
	real, err := fsio.RealPath(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, real)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// Load reads and parses the configuration file path (see Parse). A file
// that is not a regular file or is larger than MaxSize is an error.
func Load(path string) (*Config, error) {
	// Never blocks: a FIFO is refused before anything waits for a writer.
	data, err := fsio.ReadFile(path, MaxSize)
	switch {
	case errors.Is(err, fsio.ErrTooLarge):
		return nil, fmt.Errorf("config %s: larger than %d bytes", path, MaxSize)
	case errors.Is(err, fsio.ErrNotRegular):
		return nil, fmt.Errorf("config %s: %w", path, fsio.Cause(err)) // "not a regular file (a FIFO)"
	case err != nil:
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data)
}

// Parse parses data, the content of the configuration file path. Errors
// name path and a line: YAML syntax, an unknown key, a mapping or list where
// a value belongs (or the other way round), an alias, a value outside its
// set, a suppression without a reason or otherwise invalid.
func Parse(path string, data []byte) (*Config, error) {
	c := &Config{Path: path}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, atLine(path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	// One file, one configuration: a second document (after ---) would
	// be silently ignored, and it is read strictly.
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, fmt.Errorf("%s:%d: a second YAML document: the file holds one configuration", path, more.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, atLine(path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c, nil // an empty file
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil
	}
	if err := check(path, root, shape, ""); err != nil {
		return nil, err
	}
	if err := root.Decode(c); err != nil {
		return nil, decodeError(path, err)
	}
	for _, key := range PathKeys {
		n := root
		for _, k := range strings.Split(key, ".") {
			if n = valueOf(n, k); n == nil {
				break
			}
		}
		if n != nil {
			if c.lines == nil {
				c.lines = map[string]int{}
			}
			c.lines[key] = n.Line
		}
	}
	if items := valueOf(root, "suppressions"); items != nil {
		for i, n := range items.Content {
			c.Suppressions[i].Line = n.Line
		}
	}
	if err := c.validate(root); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeError names path in a decoding error, at the line of the first
// error of a yaml.TypeError.
func decodeError(path string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return atLine(path, te.Errors[0])
	}
	return fmt.Errorf("%s: %v", path, err)
}

// atLine names path in a YAML error message: "path:N: msg" for "line N:
// msg", "path: msg" for one without a line.
func atLine(path, msg string) error {
	var n int
	if _, err := fmt.Sscanf(msg, "line %d:", &n); err == nil {
		_, rest, _ := strings.Cut(msg, ": ")
		return fmt.Errorf("%s:%d: %s", path, n, rest)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// check walks n against its shape: every key known, mappings and lists
// where the shape has them, no aliases.
func check(path string, n *yaml.Node, sh any, where string) error {
	at := func(n *yaml.Node, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, n.Line, fmt.Sprintf(format, a...))
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return at(n, "%s: YAML anchors and aliases are not allowed", orTop(where))
	}
	switch sh := sh.(type) {
	case fields:
		if n.Kind != yaml.MappingNode {
			return at(n, "%s: want a mapping of %s", orTop(where), keyList(sh))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub, ok := sh[k.Value]
			if !ok || k.Kind != yaml.ScalarNode {
				return at(k, "unknown key %q in %s (want %s)", k.Value, orTop(where), keyList(sh))
			}
			if err := check(path, v, sub, join(where, k.Value)); err != nil {
				return err
			}
		}
	case listOf:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return at(n, "%s: want a list", where)
		}
		for i, item := range n.Content {
			if err := check(path, item, sh.elem, fmt.Sprintf("%s[%d]", where, i+1)); err != nil {
				return err
			}
		}
	case scalars:
		if n.Kind == yaml.MappingNode {
			return at(n, "%s: want a list of values, not a mapping", where)
		}
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode || c.Anchor != "" {
				return at(c, "%s: want a list of plain values", where)
			}
		}
	default:
		if n.Kind != yaml.ScalarNode {
			return at(n, "%s: want a single value", where)
		}
	}
	return nil
}

func orTop(where string) string {
	if where == "" {
		return "the top level"
	}
	return where
}

func join(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

func keyList(f fields) string {
	return strings.Join(slices.Sorted(maps.Keys(f)), ", ")
}

// valueOf returns the value of key in mapping n, nil when absent.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// validate checks the values of c; root is the document, for lines.
func (c *Config) validate(root *yaml.Node) error {
	line := func(keys ...string) int {
		n := root
		for _, k := range keys {
			if v := valueOf(n, k); v != nil {
				n = v
			}
		}
		return n.Line
	}
	bad := func(l int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", c.Path, l, fmt.Sprintf(format, a...))
	}
	for _, e := range []struct{ key, value string }{
		{"gate.fail-on", c.Gate.FailOn},
		{"gate.fail-on-new", c.Gate.FailOnNew},
		{"agents.dedup", c.Agents.Dedup},
	} {
		if e.value == "" {
			continue
		}
		if err := CheckChoice(e.key, e.value); err != nil {
			return bad(line(strings.Split(e.key, ".")...), "%s %q: %v", e.key, e.value, err)
		}
	}
	for _, l := range []struct {
		key   string
		globs []string
	}{{"include", c.Agents.Include}, {"ignore", c.Agents.Ignore}} {
		for _, g := range l.globs {
			if err := parse.ValidGlob(g); err != nil {
				return bad(line("agents", l.key), "agents.%s %q: %v", l.key, g, err)
			}
		}
	}
	for _, name := range c.Agents.Expect {
		if err := parse.ValidName(name); err != nil {
			return bad(line("agents", "expect"), "agents.expect %q: %v", name, err)
		}
	}
	for _, s := range c.SynthSuppressions() {
		if err := synth.ValidSuppression(&s); err != nil {
			return err
		}
	}
	return nil
}

// choices are the values of the settings that take one of a few words, by
// key; the flags of the same names take the same.
var choices = map[string][]string{
	"gate.fail-on":     {"none", "needs-changes", "risky"},
	"gate.fail-on-new": {"none", "P0", "P1", "P2", "P3"},
	"agents.dedup":     {"fuzzy", "exact"},
}

// CheckChoice returns nil when value is one of the values of the setting
// key ("gate.fail-on", "gate.fail-on-new" or "agents.dedup"), else an error
// saying which it wants ("want fuzzy or exact").
func CheckChoice(key, value string) error {
	want := choices[key]
	if slices.Contains(want, value) {
		return nil
	}
	last := len(want) - 1
	return fmt.Errorf("want %s or %s", strings.Join(want[:last], ", "), want[last])
}

// SynthSuppressions returns the suppressions for synth.Options, each named
// by the file and line of its entry.
func (c *Config) SynthSuppressions() []synth.Suppression {
	out := make([]synth.Suppression, 0, len(c.Suppressions))
	for _, s := range c.Suppressions {
		out = append(out, synth.Suppression{
			File: c.Path, Line: s.Line, Fingerprint: s.Fingerprint, Reason: s.Reason, Expires: s.Expires,
			Match: synth.SuppressionMatch{Title: s.Match.Title, File: s.Match.File, Severity: parse.Severity(s.Match.Severity)},
		})
	}
	return out
}

// Get returns the value of the path setting key (one of PathKeys), ""
// when it is not set.
func (c *Config) Get(key string) string {
	switch key {
	case "baseline":
		return c.Baseline
	case "output.out":
		return c.Output.Out
	case "evidence.repo":
		return c.Evidence.Repo
	}
	if k, ok := strings.CutPrefix(key, "output."); ok {
		return c.Output.Files[k]
	}
	return ""
}

// Local returns v, the value of the path setting key (one of PathKeys),
// resolved against the file's directory (Resolve), when it stays inside
// the repository the file belongs to (Root, symbolic links followed): no
// configuration sends an output or a read outside it (SPEC §10). A path
// that leaves it is an error naming the file, the line and the setting.
// "" and "-" (standard output) stay as they are.
func (c *Config) Local(key, v string) (string, error) {
	p := c.Resolve(v)
	if p == "" || p == "-" || c.Path == "" {
		return p, nil
	}
	root := c.Root
	if root == "" {
		root = filepath.Dir(c.Path)
	}
	realRoot, err := fsio.RealPath(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.Path, err)
	}
	if !within(realRoot, p) {
		where := c.Path
		if n := c.lines[key]; n > 0 {
			where = fmt.Sprintf("%s:%d", where, n)
		}
		flag := "--" + key[strings.LastIndexByte(key, '.')+1:] // output.html: --html
		return "", fmt.Errorf("%s: %s %q leads outside %s, the repository of the file: not used (a path elsewhere is given with %s)", where, key, v, root, flag)
	}
	return p, nil
}

// Resolve returns p relative to the directory of the configuration file
// when p is relative and there is a file; p itself otherwise. "" and "-"
// (standard output) stay as they are.
func (c *Config) Resolve(p string) string {
	if p == "" || p == "-" || filepath.IsAbs(p) || c.Path == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.Path), p)
}
