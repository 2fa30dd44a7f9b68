package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"

	"github.com/fluxwatch/fluxwatch/internal/corpustest"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
)

// The -update flag rewrites the expected parts of golden files (make golden).
// Other test files of this package may define it too; whichever registers
// first wins, and updateGolden reads it by name.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the expected parts of golden files")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// yamlGolden is what a YAML golden case expects: the record read, the keys
// kept as extra, the diagnostics and the error.
type yamlGolden struct {
	Value       any            `json:"value"`
	Extra       map[string]any `json:"extra,omitempty"`
	Diagnostics []string       `json:"diagnostics"`
	Error       string         `json:"error,omitempty"`
}

// TestYAMLGolden runs the cases of testdata/yaml/*.txtar. Each holds one input
// — specialist.yaml, design.yaml or feature.yaml, naming the reader — and
// want.json (the record, the diagnostics, the error). A specialist or feature
// manifest read without error also holds want.yaml, its re-encoding in the
// §4.1 form. -update rewrites want.json and want.yaml.
func TestYAMLGolden(t *testing.T) {
	txtartest.Each(t, "testdata/yaml/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		var input, kind string
		for _, f := range ar.Files {
			switch f.Name {
			case "specialist.yaml", "design.yaml", "feature.yaml":
				input, kind = string(f.Data), f.Name
			}
		}
		if kind == "" {
			t.Fatal("no input file (specialist.yaml, design.yaml or feature.yaml)")
		}
		got, encoded := readGoldenInput(t, kind, []byte(input))
		gotJSON, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		gotJSON = append(gotJSON, '\n')
		want := map[string][]byte{"want.json": gotJSON}
		if encoded != nil {
			want["want.yaml"] = encoded
		}
		if updateGolden() {
			var kept []txtar.File
			for _, f := range ar.Files {
				if f.Name != "want.json" && f.Name != "want.yaml" {
					kept = append(kept, f)
				}
			}
			for _, name := range []string{"want.json", "want.yaml"} {
				if data, ok := want[name]; ok {
					kept = append(kept, txtar.File{Name: name, Data: data})
				}
			}
			ar.Files = kept
			if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		found := map[string]bool{}
		for _, f := range ar.Files {
			w, ok := want[f.Name]
			if f.Name != "want.json" && f.Name != "want.yaml" {
				continue
			}
			found[f.Name] = true
			if !ok {
				t.Errorf("%s present but the reader returned an error; run with -update", f.Name)
				continue
			}
			if !bytes.Equal(w, f.Data) {
				t.Errorf("%s differs (run with -update to accept)\n--- got\n%s\n--- want\n%s", f.Name, w, f.Data)
			}
		}
		for name := range want {
			if !found[name] {
				t.Errorf("%s missing from the archive; run with -update", name)
			}
		}
	})
}

// readGoldenInput reads input with the reader kind names and, when it read
// without error, re-encodes it and checks that the encoding reads back to the
// same encoding.
func readGoldenInput(t *testing.T, kind string, input []byte) (yamlGolden, []byte) {
	t.Helper()
	var (
		g       yamlGolden
		diags   []Diagnostic
		err     error
		encoded []byte
	)
	switch kind {
	case "specialist.yaml":
		var s *Specialist
		s, diags, err = ReadSpecialist(input)
		g.Value = s
		for k, v := range s.Extra {
			if g.Extra == nil {
				g.Extra = map[string]any{}
			}
			g.Extra[k] = nodeValue(t, v)
		}
		for _, a := range s.Approaches {
			for k, v := range a.Extra {
				if g.Extra == nil {
					g.Extra = map[string]any{}
				}
				g.Extra["approach "+a.ID()+" "+k] = nodeValue(t, v)
			}
		}
		if err == nil {
			encoded = mustEncode(t)(EncodeSpecialist(s))
			s2, d2, err2 := ReadSpecialist(encoded)
			if err2 != nil {
				t.Errorf("re-encoding reads back with error %v:\n%s", err2, encoded)
			}
			for _, d := range d2 {
				// Kept unknown keys are still unknown when read back, kept
				// conflicts still conflicts; nothing else may be reported.
				if !strings.Contains(d.Message, "unknown key") && !strings.Contains(d.Message, "given twice") &&
					!strings.Contains(d.Message, "both standalone and variants") {
					t.Errorf("re-encoding reads back with diagnostic %q:\n%s", d, encoded)
				}
			}
			if again := mustEncode(t)(EncodeSpecialist(s2)); !bytes.Equal(again, encoded) {
				t.Errorf("encoding is not stable:\n%s\n---\n%s", encoded, again)
			}
		}
	case "design.yaml":
		var m *DesignManifest
		m, diags, err = ReadDesignManifest(input)
		g.Value = m
	case "feature.yaml":
		var m *FeatureManifest
		m, diags, err = ReadFeatureManifest(input)
		g.Value = m
		if err == nil {
			encoded = mustEncode(t)(EncodeFeatureManifest(m))
			m2, d2, err2 := ReadFeatureManifest(encoded)
			if err2 != nil || len(d2) != 0 {
				t.Errorf("re-encoding reads back with diagnostics %v, error %v", d2, err2)
			}
			b1, _ := json.Marshal(m)
			b2, _ := json.Marshal(m2)
			if !bytes.Equal(b1, b2) {
				t.Errorf("re-encoding reads back differently:\n%s\n%s", b1, b2)
			}
		}
	}
	g.Diagnostics = []string{}
	for _, d := range diags {
		g.Diagnostics = append(g.Diagnostics, d.String())
	}
	if err != nil {
		g.Error = err.Error()
		if !errors.Is(err, ErrMalformedYAML) {
			t.Errorf("error %v does not wrap ErrMalformedYAML", err)
		}
	}
	checkDiagPositions(t, input, diags, err)
	return g, encoded
}

// nodeValue decodes a kept YAML value for the golden JSON.
func nodeValue(t *testing.T, n *yaml.Node) any {
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatalf("decode kept value: %v", err)
	}
	return v
}

func mustEncode(t *testing.T) func([]byte, error) []byte {
	return func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		return b
	}
}

// checkDiagPositions checks the properties every YAML read has: lines inside
// the input, an error exactly when an error diagnostic is present.
func checkDiagPositions(t testing.TB, input []byte, diags []Diagnostic, err error) {
	t.Helper()
	lines := yamlLines(input)
	hasErr := false
	for _, d := range diags {
		if d.Line < 0 || d.Line > lines {
			t.Errorf("diagnostic %q: line outside the input's %d lines", d, lines)
		}
		if d.Level == LevelError {
			hasErr = true
		}
	}
	if hasErr != (err != nil) {
		t.Errorf("error %v but error diagnostics %v", err, hasErr)
	}
}

// yamlLines counts lines as YAML does: \n, \r\n, a lone \r, NEL, LS and PS
// each end one.
func yamlLines(input []byte) int {
	s := strings.ReplaceAll(string(input), "\r\n", "\n")
	n := 1
	for _, r := range s {
		switch r {
		case '\n', '\r', '\u0085', '\u2028', '\u2029':
			n++
		}
	}
	return n
}

// billionLaughs returns an alias bomb of the given depth: each level is a list
// of nine aliases of the previous one.
func billionLaughs(depth int) []byte {
	var b strings.Builder
	b.WriteString("l0: &l0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n")
	for i := 1; i <= depth; i++ {
		prev := "*l" + itoa(i-1)
		b.WriteString("l" + itoa(i) + ": &l" + itoa(i) + " [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(prev)
		}
		b.WriteString("]\n")
	}
	return []byte(b.String())
}

func itoa(n int) string { return Approach{Number: n}.ID() }

func TestYAMLLimits(t *testing.T) {
	big := append([]byte("specialist_name: x\nnotes: |\n"), bytes.Repeat([]byte("  padding padding padding\n"), MaxYAMLSize/26+1)...)
	justUnder := append([]byte("specialist_name: x\nnotes: \""), bytes.Repeat([]byte("x"), MaxYAMLSize-40)...)
	justUnder = append(justUnder, "\"\n"...)
	// Nine aliases of a list of nine aliases of a list of nine strings: 90
	// aliases adding 9*10+9*9*10 = 900 nodes, well inside the limit.
	modest := billionLaughs(2)
	cases := []struct {
		name    string
		input   []byte
		wantErr string // substring of the error; "" for none
	}{
		{"over size cap", big, "over the 1048576-byte limit"},
		{"just under size cap", justUnder, ""},
		{"billion laughs", billionLaughs(9), "alias bomb"},
		{"alias expansion at depth 5", billionLaughs(5), "alias bomb"},
		{"modest aliases", modest, ""},
		{"recursive alias", []byte("a: &a [b, *a]\n"), "refers to a node that contains it"},
		{"recursive merge", []byte("a: &a {<<: *a}\n"), "refers to a node that contains it"},
		{"unknown anchor", []byte("a: *nope\n"), "unknown anchor"},
		{"binary", []byte("\x00\x01\x02\xff\xfe"), "YAML syntax"},
		{"two documents", []byte("a: 1\n---\nb: 2\n"), "more than one YAML document"},
		{"deep nesting", bytes.Repeat([]byte("["), 20000), "exceeded max depth"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, diags, err := ReadSpecialist(c.input)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				// Not a speed assertion: a runaway expansion would take hours.
				t.Errorf("took %v", elapsed)
			}
			checkDiagPositions(t, c.input, diags, err)
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("got error %v, want none", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("got error %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

// TestYAMLDiagnosticCap checks that a file with thousands of problems reports
// a bounded number of diagnostics, still fails, and says how many it left out.
func TestYAMLDiagnosticCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("specialist_name: x\napproaches:\n")
	for i := 0; i < 5000; i++ {
		b.WriteString("  - number: \"one\"\n")
	}
	_, diags, err := ReadSpecialist([]byte(b.String()))
	if err == nil {
		t.Fatal("no error for 5000 bad numbers")
	}
	if len(diags) > maxYAMLDiags+2 {
		t.Errorf("%d diagnostics, want at most %d", len(diags), maxYAMLDiags+2)
	}
	last := diags[len(diags)-1]
	if last.Level != LevelInfo || !strings.Contains(last.Message, "more diagnostics not shown") {
		t.Errorf("last diagnostic %q, want the count of those left out", last)
	}
}

func TestApproachUnanswered(t *testing.T) {
	a := Approach{Questions: []string{"q1", "q2", "q3"}, AddressedQuestions: []string{"q2"}}
	got := strings.Join(a.Unanswered(), ",")
	if got != "q1,q3" {
		t.Errorf("Unanswered() = %q, want %q", got, "q1,q3")
	}
}

// TestEnvoyCorpus reads the YAML examples of the envoy design notes in
// ../shared/corpus/envoy (skipped when absent): every example holding
// specialist_name or approaches reads as a specialist file, every one holding
// designs as a design manifest, without errors.
func TestEnvoyCorpus(t *testing.T) {
	root := filepath.Join(corpustest.Root(t), "envoy")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no envoy examples in the corpus:", err)
	}
	var checked int
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, block := range fencedYAML(string(data)) {
			var diags []Diagnostic
			var err error
			switch {
			case strings.Contains(block.text, "specialist_name:") || strings.HasPrefix(block.text, "approaches:"):
				_, diags, err = ReadSpecialist([]byte(block.text))
			case strings.HasPrefix(block.text, "designs:"):
				_, diags, err = ReadDesignManifest([]byte(block.text))
			default:
				continue
			}
			checked++
			if err != nil {
				t.Errorf("%s:%d: %v", path, block.line, err)
			}
			for _, d := range diags {
				t.Logf("%s:%d: %s", path, block.line, d)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 3 {
		t.Errorf("only %d YAML examples found in the envoy notes", checked)
	}
}

type fenced struct {
	line int
	text string
}

// fencedYAML returns the ```yaml blocks of a Markdown text.
func fencedYAML(md string) []fenced {
	var out []fenced
	var cur *fenced
	var b strings.Builder
	for i, line := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```yaml":
			cur = &fenced{line: i + 2}
			b.Reset()
		case cur != nil && strings.TrimRight(line, " \r") == "```":
			cur.text = b.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return out
}
