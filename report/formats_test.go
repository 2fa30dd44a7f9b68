package report

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every format is complete: a name, help, and for a file format a flag, a
// configuration key and a renderer that renders; names, flags and keys are
// each used once. A format missing any of these fails here.
func TestFormatsComplete(t *testing.T) {
	if len(FileFormats()) < 4 {
		t.Fatalf("only %d file formats: the list is not read", len(FileFormats()))
	}
	s := synthesis(t)
	names, flags, keys := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range Formats {
		if f.Name == "" || f.Usage == "" {
			t.Errorf("%+v: a format needs a name and a usage", f)
		}
		if names[f.Name] {
			t.Errorf("format %q listed twice", f.Name)
		}
		names[f.Name] = true
		if (f.Flag == "") != (f.Config == "") || (f.Flag == "") != (f.Render == nil) {
			t.Errorf("format %q: a file format has a flag, a config key and a renderer; another has none of them", f.Name)
			continue
		}
		if f.Flag == "" {
			continue
		}
		if flags[f.Flag] || keys[f.Config] {
			t.Errorf("format %q: flag --%s or key output.%s used twice", f.Name, f.Flag, f.Config)
		}
		flags[f.Flag], keys[f.Config] = true, true
		if !strings.Contains(f.Usage, "`FILE`") {
			t.Errorf("format %q: usage %q names no `FILE`", f.Name, f.Usage)
		}
		data, err := f.Render(s, Targets{Base: "run"})
		if err != nil || len(data) == 0 {
			t.Errorf("format %q: Render = %d bytes, %v", f.Name, len(data), err)
		}
	}
	for _, want := range []string{"markdown", "json", "github"} {
		if !names[want] {
			t.Errorf("format %q is missing", want)
		}
	}
}

// FormatNames is sorted and complete; LookupFormat finds each.
func TestFormatNames(t *testing.T) {
	got := FormatNames()
	if len(got) != len(Formats) {
		t.Fatalf("FormatNames = %v, want %d names", got, len(Formats))
	}
	for i, n := range got {
		if i > 0 && got[i-1] >= n {
			t.Errorf("FormatNames not sorted: %v", got)
		}
		if f, ok := LookupFormat(n); !ok || f.Name != n {
			t.Errorf("LookupFormat(%q) = %v, %v", n, f.Name, ok)
		}
	}
	if _, ok := LookupFormat("xml"); ok {
		t.Error("LookupFormat found a format that is not listed")
	}
}

// docs/cli.md has a row for every format in its table of output formats,
// naming its file flag and configuration key, and no row for a format that
// is not listed.
func TestFormatsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Output formats\n")
	if !ok {
		t.Fatal("docs/cli.md has no section Output formats")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z]+)` \\|(.*)$").FindAllStringSubmatch(section, -1) {
		rows[m[1]] = m[2]
	}
	for _, f := range Formats {
		row, ok := rows[f.Name]
		switch {
		case !ok:
			t.Errorf("docs/cli.md#output-formats: no row for %q", f.Name)
		case f.Flag != "" && !strings.Contains(row, "`--"+f.Flag+" FILE`"):
			t.Errorf("docs/cli.md#output-formats: the row of %q does not name --%s FILE", f.Name, f.Flag)
		case f.Config != "" && !strings.Contains(row, "`"+f.Config+"`"):
			t.Errorf("docs/cli.md#output-formats: the row of %q does not name its key %s", f.Name, f.Config)
		}
		delete(rows, f.Name)
	}
	for name := range rows {
		t.Errorf("docs/cli.md#output-formats: a row for %q, which is no format", name)
	}
}

// Targets.Files covers every file format: OnStdout, FileTargets and Write
// see each.
func TestTargetsEveryFormat(t *testing.T) {
	for _, f := range FileFormats() {
		tg := Targets{Files: map[string]string{f.Name: Stdout}}
		if got := tg.OnStdout(); len(got) != 1 || got[0] != "--"+f.Flag {
			t.Errorf("%s: OnStdout = %v", f.Name, got)
		}
		tg.Files[f.Name] = "x"
		if got := tg.FileTargets(); len(got) != 1 || got[0] != (FileTarget{"--" + f.Flag, "x"}) {
			t.Errorf("%s: FileTargets = %v", f.Name, got)
		}
	}
}
