package page_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/page"
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
	v, err := evidence.Open(fx.repo, evidence.Options{})
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

func (fx *fixture) file(name string) *txtar.File {
	for i := range fx.archive.Files {
		if fx.archive.Files[i].Name == name {
			return &fx.archive.Files[i]
		}
	}
	return nil
}

func render(t testing.TB, s *synth.Synthesis, opts page.Options) []byte {
	t.Helper()
	b, err := page.Render(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var gateOpts = page.Options{Gate: "needs-changes", GateTripped: true}

// TestGolden renders each fixture and compares with its page.html.
func TestGolden(t *testing.T) {
	for _, name := range []string{"basic", "xss"} {
		t.Run(name, func(t *testing.T) {
			fx := loadFixture(t, name)
			got := render(t, fx.synthesize(t), gateOpts)
			want := fx.file("page.html")
			if want == nil {
				t.Fatalf("%s: no page.html", fx.path)
			}
			if bytes.Equal(got, want.Data) {
				return
			}
			if *update {
				want.Data = got
				if err := os.WriteFile(fx.path, txtar.Format(fx.archive), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("%s: page differs from page.html (go test ./page -run Golden -update, then review the diff):\n%s",
				fx.path, firstDiff(want.Data, got))
		})
	}
}

// firstDiff shows the first line where got differs from want.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + wl + "\ngot:  " + gl
		}
	}
	return ""
}

// TestDeterministic synthesises and renders the same run twice, from two
// copies written in different orders, and wants the same bytes.
func TestDeterministic(t *testing.T) {
	a := render(t, loadFixture(t, "basic").synthesize(t), gateOpts)
	b := render(t, loadFixture(t, "basic").synthesize(t), gateOpts)
	if !bytes.Equal(a, b) {
		t.Fatalf("two renderings of the same run differ:\n%s", firstDiff(a, b))
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
