package page_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"github.com/fluxwatch/fluxwatch/internal/txtartest"
	"github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite page.html in testdata/*.txtar")

// fixture is a run of testdata/NAME.txtar written to a temporary directory.
type fixture struct {
	archive *txtar.Archive
	path    string
	run     string // the run directory
	repo    string
}

// loadFixture writes the run/ and repo/ files of testdata/name.txtar into a
// temporary directory and gives them the modification times of its mtimes
// file.
func loadFixture(t testing.TB, name string) *fixture {
	t.Helper()
	path := filepath.Join("testdata", name+".txtar")
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fx := &fixture{archive: a, path: path, run: filepath.Join(dir, "run"), repo: filepath.Join(dir, "repo")}
	for _, d := range []string{fx.run, fx.repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var mtimes []byte
	for _, f := range a.Files {
		switch {
		case f.Name == "mtimes":
			mtimes = f.Data
		case strings.HasPrefix(f.Name, "run/"), strings.HasPrefix(f.Name, "repo/"):
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(mtimes))
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		at, err := time.Parse(time.RFC3339, line[i+1:])
		if err != nil {
			t.Fatalf("%s: mtimes: %v", path, err)
		}
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(line[:i])), at, at); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// synthesize synthesises the fixture's run as `fluxwatch synth --repo`
// would, with the input named "run" and a fixed reviewed time.
func (fx *fixture) synthesize(t testing.TB) *synth.Synthesis {
	t.Helper()
	v, err := evidence.Open(fx.repo, evidence.Options{Tracked: evidence.EveryFileTracked}) // the xss fixture's note quotes markup
	if err != nil {
		t.Fatal(err)
	}
	opts := synth.Options{
		Generator:    synth.Generator{Name: "fluxwatch", Version: "test"},
		Reviewed:     time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		Evidence:     v,
		EvidenceRepo: "repo",
	}
	s, err := watcher.Synthesize(context.Background(), fx.run, watcher.ScanOptions{Jobs: 2, MaxLine: 1 << 20}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Input = "run"
	return s
}

func render(t testing.TB, s *synth.Synthesis, opts page.Options) []byte {
	t.Helper()
	b, err := page.Render(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var gateOpts = page.Options{Gate: synth.Gate{FailOn: parse.NeedsChanges}}

// TestGolden renders each fixture and compares with its page.html (go test
// ./page -run Golden -update rewrites it).
func TestGolden(t *testing.T) {
	for _, name := range []string{"basic", "xss"} {
		t.Run(name, func(t *testing.T) {
			fx := loadFixture(t, name)
			txtartest.Golden(t, fx.path, fx.archive, "page.html", render(t, fx.synthesize(t), gateOpts), *update)
		})
	}
}

// TestDeterministic synthesises and renders the same run twice, from two
// copies written in different orders, and wants the same bytes.
func TestDeterministic(t *testing.T) {
	a := render(t, loadFixture(t, "basic").synthesize(t), gateOpts)
	b := render(t, loadFixture(t, "basic").synthesize(t), gateOpts)
	if !bytes.Equal(a, b) {
		t.Fatalf("two renderings of the same run differ:\n%s", txtartest.FirstDiff(a, b))
	}
	live := render(t, loadFixture(t, "basic").synthesize(t), page.Options{Live: true})
	if !bytes.Equal(live, render(t, loadFixture(t, "basic").synthesize(t), page.Options{Live: true})) {
		t.Fatal("two live renderings of the same run differ")
	}
}

// TestSelfContained: the static page references nothing outside itself and
// holds no script; the live page holds exactly the one allowed by its CSP.
func TestSelfContained(t *testing.T) {
	s := loadFixture(t, "basic").synthesize(t)
	static := string(render(t, s, gateOpts))
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "http://", "https://"} {
		if strings.Contains(static, bad) {
			t.Errorf("static page holds %q", bad)
		}
	}
	if !strings.Contains(static, "default-src &#39;none&#39;") {
		t.Error("static page has no Content-Security-Policy forbidding everything by default")
	}
	live := string(render(t, s, page.Options{Live: true}))
	if n := strings.Count(live, "<script"); n != 1 {
		t.Errorf("live page holds %d scripts, want 1", n)
	}
	if !strings.Contains(live, "script-src &#39;sha256-") {
		t.Error("live page's CSP does not pin its script by hash")
	}
}

// TestEscaped: every piece of markup written by an agent in the xss fixture
// reaches the page escaped. The browser test shows that nothing runs.
func TestEscaped(t *testing.T) {
	fx := loadFixture(t, "xss")
	s := fx.synthesize(t)
	for _, opts := range []page.Options{gateOpts, {Live: true}} {
		out := string(render(t, s, opts))
		for _, bad := range []string{"<img", "<svg onload", "<iframe", `<a href="javascript`, "</title><script", "<style>body", `"><img`} {
			if strings.Contains(out, bad) {
				t.Errorf("live=%v: page holds %q unescaped", opts.Live, bad)
			}
		}
		if n := strings.Count(out, "<script"); (opts.Live && n != 1) || (!opts.Live && n != 0) {
			t.Errorf("live=%v: %d script elements", opts.Live, n)
		}
		for _, text := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "fd-&lt;img src=x onerror=__pwned=9&gt;"} {
			if !strings.Contains(out, text) {
				t.Errorf("live=%v: page does not show %q as text", opts.Live, text)
			}
		}
	}
}

// TestControlsInert: agent text with control characters and a
// right-to-left override in every field reaches the page as visible
// stand-ins (html/template escapes markup, not these), static and live.
func TestControlsInert(t *testing.T) {
	dir := t.TempDir()
	testfault.ControlRun(t, dir)
	s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{}, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []page.Options{gateOpts, {Live: true}} {
		out := render(t, s, opts)
		if bad := testfault.ShowRawControl(out); bad != "" {
			t.Errorf("live=%v: a raw control character %s", opts.Live, bad)
		}
		for _, want := range []string{"Token x␛[2J␇⟨U+009B⟩31m⟨U+202E⟩y leaks", "odd x␛[2J"} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("live=%v: the page does not show %q", opts.Live, want)
			}
		}
	}
}

// TestWording: counts agree with their nouns ("1 moment", never "1
// moments"), and the page names the run directory and the repository as
// its Options say (relative to the repository, not the working directory
// of the process that made it).
func TestWording(t *testing.T) {
	s := loadFixture(t, "basic").synthesize(t)
	s.Findings = s.Findings[:1] // one finding: one moment of final convergence
	s.Improvements = s.Improvements[:min(1, len(s.Improvements))]
	got := string(render(t, s, page.Options{Input: "reviews/pr-7", Repo: "acme"}))
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(got, " ")
	if m := regexp.MustCompile(`\b1 (moments|agents|findings|diagnostics|improvements|bus posts)\b`).FindString(text); m != "" {
		t.Errorf("the page says %q", m)
	}
	for _, want := range []string{"(1 moment)", "1 bus post shown", "<dd>reviews/pr-7</dd>", "against acme", "<title>fluxwatch · "} {
		if !strings.Contains(got, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(got, "<dd>run</dd>") {
		t.Error("the page names the run directory as the synthesis's input, not as Options.Input")
	}
}
