package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/rogpeppe/go-internal/testscript"
)

// A README example is a fenced ```sh block of README.md or of a page of the
// manual (docs/*.md). Each one runs, as
// written, in a testscript whose work directory looks like a checkout of the
// repository (testdata/example is there) and whose PATH holds fluxwatch, as
// after `make install`. An HTML comment on the line right before the fence,
// invisible on GitHub, says how:
//
//	<!-- example: exit 1 -->            the block's last command exits 1 (a gate trips)
//	<!-- example: needs jq -->          skipped when jq is not installed
//	<!-- example: not run: REASON -->   not run (it builds the tool, runs for minutes, …)
//
// Several are separated by ";"; "not run" comes last and its reason runs to
// the end of the comment. A block labelled bash, shell, console or zsh
// is an error: label it sh, so that it is run or says why not.

// readmeExample is one ```sh block of a Markdown file.
type readmeExample struct {
	line   int    // line of the opening fence, from 1
	script string // the block's text
	notRun string // why it is not run; "" when it is
	exit   int    // the exit status the block must end with
	needs  []string
}

// readmeExamples returns the ```sh blocks of the Markdown document name in
// order, with their markers. The error names the line of a block that is
// labelled otherwise than sh, of a marker it does not know, or of a fence
// left open.
func readmeExamples(name string, md []byte) ([]readmeExample, error) {
	var (
		out    []readmeExample
		prev   string // the previous line, for the marker
		fence  string // the open fence ("```"), "" outside one
		inSh   bool
		cur    readmeExample
		text   strings.Builder
		lineNo int
	)
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case fence == "" && indent <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			n := len(trimmed) - len(strings.TrimLeft(trimmed, trimmed[:1]))
			fence = trimmed[:n]
			info := strings.Fields(trimmed[n:])
			lang := ""
			if len(info) > 0 {
				lang = info[0]
			}
			switch lang {
			case "sh":
				ex, err := exampleMarker(prev)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", name, lineNo-1, err)
				}
				inSh, cur = true, ex
				cur.line = lineNo
				text.Reset()
			case "bash", "shell", "console", "zsh", "shell-session":
				return nil, fmt.Errorf("%s:%d: a %s block: label shell examples sh, so that they are run (or say why not)", name, lineNo, lang)
			default:
				if m, err := exampleMarker(prev); err != nil || m.notRun != "" || m.exit != 0 || len(m.needs) > 0 {
					return nil, fmt.Errorf("%s:%d: an example marker on a %q block, not a sh block", name, lineNo-1, lang)
				}
			}
		case fence != "" && indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "":
			if inSh {
				cur.script = text.String()
				out = append(out, cur)
			}
			fence, inSh = "", false
		case inSh:
			text.WriteString(line)
			text.WriteByte('\n')
		}
		prev = line
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if fence != "" {
		return nil, fmt.Errorf("%s: a fence left open at the end", name)
	}
	return out, nil
}

// exampleMarker reads the marker comment of a block from the line before
// its fence; a line that is no marker gives the zero example (run, exit 0).
func exampleMarker(line string) (readmeExample, error) {
	var ex readmeExample
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "<!-- example:") {
		return ex, nil
	}
	if !strings.HasSuffix(s, "-->") {
		return ex, fmt.Errorf("example marker %q: end it on its line with -->", s)
	}
	body := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<!-- example:"), "-->"))
	if i := strings.Index(body, "not run"); i >= 0 { // the reason is the rest, ";" and all
		reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body[i+len("not run"):]), ":"))
		if reason == "" {
			return ex, fmt.Errorf("example marker %q: say why it is not run (not run: REASON)", s)
		}
		ex.notRun, body = reason, strings.TrimSuffix(strings.TrimSpace(body[:i]), ";")
	}
	for _, part := range strings.Split(body, ";") {
		part = strings.TrimSpace(part)
		switch {
		case part == "" && ex.notRun != "":
		case strings.HasPrefix(part, "exit "):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(part, "exit ")))
			if err != nil || n < 0 || n > 255 {
				return ex, fmt.Errorf("example marker %q: exit wants a status 0-255", s)
			}
			ex.exit = n
		case strings.HasPrefix(part, "needs "):
			ex.needs = append(ex.needs, strings.Fields(strings.TrimPrefix(part, "needs "))...)
		default:
			return ex, fmt.Errorf("example marker %q: unknown %q (want not run: REASON, exit N or needs CMD)", s, part)
		}
	}
	return ex, nil
}

func TestReadmeExamplesParse(t *testing.T) {
	tests := []struct {
		name    string
		md      string
		want    []readmeExample
		wantErr string
	}{
		{name: "plain", md: "text\n```sh\nfluxwatch version\n```\n",
			want: []readmeExample{{line: 2, script: "fluxwatch version\n"}}},
		{name: "markers", md: "<!-- example: exit 1; needs jq -->\n```sh\na\nb\n```\n<!-- example: not run: builds the tool -->\n```sh\nmake install\n```\n",
			want: []readmeExample{{line: 2, script: "a\nb\n", exit: 1, needs: []string{"jq"}}, {line: 7, script: "make install\n", notRun: "builds the tool"}}},
		{name: "other blocks are not examples", md: "```\nfluxwatch synth [DIR]\n```\n```json\n{}\n```\n````md\n```sh\ninner\n```\n````\n"},
		{name: "a bash block is not covered", md: "```bash\nfluxwatch version\n```\n", wantErr: "README.md:1: a bash block"},
		{name: "console too", md: "```console\n$ fluxwatch version\n```\n", wantErr: "a console block"},
		{name: "a reason may hold a semicolon", md: "<!-- example: needs jq; not run: a step; see the test -->\n```sh\nx\n```\n",
			want: []readmeExample{{line: 2, script: "x\n", notRun: "a step; see the test", needs: []string{"jq"}}}},
		{name: "not run needs a reason", md: "<!-- example: not run -->\n```sh\nx\n```\n", wantErr: "say why"},
		{name: "unknown marker", md: "<!-- example: sometimes -->\n```sh\nx\n```\n", wantErr: `unknown "sometimes"`},
		{name: "marker on a yaml block", md: "<!-- example: exit 1 -->\n```yaml\nx: 1\n```\n", wantErr: "not a sh block"},
		{name: "open fence", md: "```sh\nx\n", wantErr: "left open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readmeExamples("README.md", []byte(tt.md))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestReadmeExamples runs every ```sh block of README.md and docs/*.md, each
// in a fresh work directory holding a copy of testdata/example, with
// fluxwatch on PATH. It fails when a block fails (or ends with another
// status than its marker says), and when a file holds a shell block it
// cannot classify.
func TestReadmeExamples(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../../README.md"}, files...)
	scripts := t.TempDir()
	ran, all := 0, 0
	for _, file := range files {
		md, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.ToSlash(file), "../../")
		examples, err := readmeExamples(name, md)
		if err != nil {
			t.Fatal(err)
		}
		if name == "README.md" && len(examples) == 0 {
			t.Fatal("README.md: no ```sh example found")
		}
		all += len(examples)
		for _, ex := range examples {
			if ex.notRun != "" {
				t.Logf("%s:%d: not run: %s", name, ex.line, ex.notRun)
				continue
			}
			ran++
			var s strings.Builder
			fmt.Fprintf(&s, "# %s:%d\n", name, ex.line)
			for _, cmd := range ex.needs {
				fmt.Fprintf(&s, "[!exec:%s] skip '%s:%d needs %s'\n", cmd, name, ex.line, cmd)
			}
			if ex.exit == 0 {
				s.WriteString("exec sh -e example.sh\n")
			} else {
				fmt.Fprintf(&s, "exec sh -c 'sh -e example.sh; c=$?; [ $c -eq %d ] || { echo \"%s:%d: exit $c, want %d\" >&2; exit 1; }'\n", ex.exit, name, ex.line, ex.exit)
			}
			fmt.Fprintf(&s, "-- example.sh --\n%s", ex.script)
			script := strings.NewReplacer("/", "-", ".md", "").Replace(name)
			path := filepath.Join(scripts, fmt.Sprintf("%s-%04d.txtar", script, ex.line))
			if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d of %d examples run", ran, all)
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: scripts,
		Setup: func(e *testscript.Env) error {
			setupExampleEnv(e)
			return copyTree(filepath.Join(e.WorkDir, "testdata", "example"), example)
		},
	})
}

// setupExampleEnv gives a script of the README or workflow tests the
// environment of script_test.go's: no colour, no race-detector pause at
// exit, and $WORK as the top of any git work tree it sees.
func setupExampleEnv(e *testscript.Env) {
	e.Setenv("NO_COLOR", "1")
	e.Setenv("GORACE", "atexit_sleep_ms=0")
	e.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(e.WorkDir))
}

// copyTree copies the directory tree src to dst with the modification
// times of its files, which decide the run's selection and acknowledgements.
// src may be a symbolic link to the tree, as testdata/example is.
func copyTree(dst, src string) error {
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	type stamp struct {
		path string
		info fs.FileInfo
	}
	var stamps []stamp
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			err = os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			var data []byte
			if data, err = os.ReadFile(p); err == nil {
				err = os.WriteFile(to, data, info.Mode().Perm())
			}
		default:
			return fmt.Errorf("copy %s: not a regular file or directory", p)
		}
		stamps = append(stamps, stamp{to, info})
		return err
	})
	if err != nil {
		return err
	}
	for i := len(stamps) - 1; i >= 0; i-- { // directories after what they hold
		if err := os.Chtimes(stamps[i].path, stamps[i].info.ModTime(), stamps[i].info.ModTime()); err != nil {
			return err
		}
	}
	return nil
}

// TestDocLinks checks every relative link of README.md and docs/*.md: the
// file it names exists and, with a #fragment, holds a heading with that
// anchor (GitHub's rule: lower case, punctuation dropped, spaces as dashes).
// None of them may cite "SPEC §": there is no SPEC in the repository.
// The README's citations point into the manual; a renamed section must not
// leave them dangling.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	anchors := map[string]map[string]bool{} // clean path → anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(data)
		anchors[path] = a
		return a
	}
	links := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		// The repository has no SPEC.md: the manual in docs/ is what
		// README.md and the docs cite.
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "SPEC §") || strings.Contains(line, "SPEC.md") {
				t.Errorf("%s:%d: cites the SPEC, which is not in the repository: link the docs/ page instead", page, i+1)
			}
		}
		for _, l := range markdownLinks(data) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(l.target, "#")
			target := filepath.Clean(page)
			if file != "" {
				target = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: link to %s: %v", page, l.line, l.target, err)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchorsOf(target)[frag] {
				t.Errorf("%s:%d: link to %s: no heading #%s in %s", page, l.line, l.target, frag, target)
			}
		}
	}
	if links == 0 {
		t.Fatal("no relative link found: the manual is not linked")
	}
}

type mdLink struct {
	line   int
	target string
}

var linkRe = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// markdownLinks returns the targets of the inline links of a Markdown
// document outside fenced blocks and code spans.
func markdownLinks(md []byte) []mdLink {
	var out []mdLink
	fence := ""
	for i, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			mark := trimmed[:3]
			switch {
			case fence == "":
				fence = mark
			case mark == fence && strings.TrimSpace(strings.Trim(trimmed, mark[:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		line = codeSpanRe.ReplaceAllString(line, "")
		for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
			out = append(out, mdLink{i + 1, m[1]})
		}
	}
	return out
}

var codeSpanRe = regexp.MustCompile("`[^`]*`")

// headingAnchors returns the anchors GitHub gives the ATX headings of a
// Markdown document outside fenced blocks.
func headingAnchors(md []byte) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			if fence == "" {
				fence = trimmed[:3]
			} else if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if fence != "" || !strings.HasPrefix(trimmed, "#") {
			continue
		}
		text := strings.TrimLeft(trimmed, "#")
		if text != "" && text[0] != ' ' {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// TestManualReports reads every ```markdown example of docs/reports.md as
// an agent report and checks it is read as the comment on the line before
// its fence says:
//
//	<!-- report: variant; P0 2, P1 1; IMP 1 -->    status; findings per severity; improvements
//	<!-- report: not a report: REASON -->          a fragment (one line per form, …)
//
// so that the manual's examples of tolerated variants and of the prose
// fallback say what the parser does. An example without a comment fails.
func TestManualReports(t *testing.T) {
	md, err := os.ReadFile("../../docs/reports.md")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, b := range markdownBlocks(md, "markdown") {
		marker, ok := strings.CutPrefix(b.before, "<!-- report:")
		marker, ok2 := strings.CutSuffix(strings.TrimSpace(marker), "-->")
		if !ok || !ok2 {
			t.Errorf("docs/reports.md:%d: a markdown example without <!-- report: … --> before it", b.line)
			continue
		}
		marker = strings.TrimSpace(marker)
		if reason, ok := strings.CutPrefix(marker, "not a report:"); ok {
			if strings.TrimSpace(reason) == "" {
				t.Errorf("docs/reports.md:%d: say why the example is not a report", b.line)
			}
			continue
		}
		checked++
		parts := strings.Split(marker, ";")
		want := strings.TrimSpace(parts[0])
		wantCounts, wantImp := map[string]int{}, 0
		for _, part := range parts[1:] {
			for _, kv := range strings.Split(part, ",") {
				var k string
				var n int
				if _, err := fmt.Sscanf(strings.TrimSpace(kv), "%s %d", &k, &n); err != nil {
					t.Fatalf("docs/reports.md:%d: marker %q: %v", b.line-1, marker, err)
				}
				if k == "IMP" {
					wantImp = n
				} else {
					wantCounts[k] = n
				}
			}
		}
		r := parse.ReadReport([]byte(b.text))
		gotCounts := map[string]int{}
		for sev, n := range r.Counts() {
			gotCounts[string(sev)] = n
		}
		if string(r.Status) != want || fmt.Sprint(gotCounts) != fmt.Sprint(wantCounts) || len(r.Improvements) != wantImp {
			t.Errorf("docs/reports.md:%d: read as %s, findings %v, %d improvements; the page says %s, %v, %d\n%s",
				b.line, r.Status, gotCounts, len(r.Improvements), want, wantCounts, wantImp, b.text)
		}
	}
	if checked < 8 {
		t.Errorf("only %d examples of docs/reports.md checked", checked)
	}
}

type mdBlock struct {
	line   int    // of the opening fence
	before string // the line before the fence, trimmed
	text   string // the content, the fence's indentation removed
}

// markdownBlocks returns the fenced blocks of md whose info string starts
// with lang, at any indentation and fence length (a longer fence holds
// shorter ones).
func markdownBlocks(md []byte, lang string) []mdBlock {
	var (
		out    []mdBlock
		prev   string
		fence  string
		indent int
		keep   bool
		cur    mdBlock
		text   strings.Builder
	)
	for i, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		ind := len(line) - len(trimmed)
		switch {
		case fence == "" && strings.HasPrefix(trimmed, "```"):
			n := len(trimmed) - len(strings.TrimLeft(trimmed, "`"))
			fence, indent = trimmed[:n], ind
			info := strings.Fields(trimmed[n:])
			keep = len(info) > 0 && info[0] == lang
			cur = mdBlock{line: i + 1, before: strings.TrimSpace(prev)}
			text.Reset()
		case fence != "" && strings.TrimSpace(trimmed) == fence:
			if keep {
				cur.text = text.String()
				out = append(out, cur)
			}
			fence = ""
		case fence != "":
			text.WriteString(line[min(indent, ind):])
			text.WriteByte('\n')
		}
		prev = line
	}
	return out
}

// TestReadmeExamplesLeaveTheExample: an example that synthesises or
// watches the example run writes its reports into --out, never into
// testdata/example (a user's checkout would change), and checks the
// evidence against the example's own sources, testdata/example/repo, as
// `make run` does: without --repo it would be checked against this
// repository, where none of the cited files are.
func TestReadmeExamplesLeaveTheExample(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range append([]string{"../../README.md"}, files...) {
		md, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.ToSlash(file), "../../")
		examples, err := readmeExamples(name, md)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range examples {
			for _, cmd := range strings.Split(strings.ReplaceAll(ex.script, "\\\n", " "), "\n") {
				cmd, _, _ = strings.Cut(cmd, "#")
				args := strings.Fields(cmd)
				if len(args) < 2 || args[0] != "fluxwatch" || (args[1] != "synth" && args[1] != "watch") ||
					!slices.Contains(args, "testdata/example") {
					continue
				}
				checked++
				if !slices.Contains(args, "--out") {
					t.Errorf("%s:%d: %q writes its reports into testdata/example: give it --out", name, ex.line, strings.TrimSpace(cmd))
				}
				if i := slices.Index(args, "--repo"); i < 0 || i+1 >= len(args) || args[i+1] != "testdata/example/repo" {
					t.Errorf("%s:%d: %q checks the evidence against the wrong tree: give it --repo testdata/example/repo", name, ex.line, strings.TrimSpace(cmd))
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no example synthesises testdata/example")
	}
}
