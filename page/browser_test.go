package page_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/internal/browsertest"
	"github.com/fluxwatch/fluxwatch/internal/demo"
	fwpage "github.com/fluxwatch/fluxwatch/page"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
	"github.com/fluxwatch/fluxwatch/watcher"
)

var screenshot = flag.String("screenshot", "", "write a screenshot of the example run's page to `FILE` (make screenshot)")

// pageFacts is what the browser reads back from a loaded page.
type pageFacts struct {
	Verdict     string         `json:"verdict"`
	VerdictText string         `json:"verdictText"`
	Counts      map[string]int `json:"counts"`
	Rows        []string       `json:"rows"`
	Agents      []string       `json:"agents"`
	Findings    int            `json:"findings"`
	Scripts     int            `json:"scripts"`
}

const factsJS = `(() => ({
  verdict: document.getElementById("report").dataset.verdict,
  verdictText: document.getElementById("verdict").textContent,
  counts: Object.fromEntries([...document.querySelectorAll(".chips li[data-sev]")].map(li => [li.dataset.sev, +li.querySelector("b").textContent])),
  rows: [...document.querySelectorAll("svg.tl g.row")].map(g => g.dataset.agent),
  agents: [...document.querySelectorAll("tr.agent")].map(r => r.dataset.agent),
  findings: document.querySelectorAll("li.finding, tr.finding").length,
  scripts: document.scripts.length,
}))()`

// findingsJSON is the part of findings.json the browser tests compare with.
type findingsJSON struct {
	Verdict string         `json:"verdict"`
	Counts  map[string]int `json:"counts"`
	Agents  []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"agents"`
	Findings []json.RawMessage `json:"findings"`
	Timeline *struct {
		PerAgent []struct {
			Agent string `json:"agent"`
		} `json:"per_agent"`
	} `json:"timeline"`
}

// wantRows are the timeline rows findings.json calls for: every agent of
// the run (not of another run) and every agent that posted on the bus.
func (f findingsJSON) wantRows() []string {
	var rows []string
	for _, a := range f.Agents {
		if a.Status != "foreign" && !slices.Contains(rows, a.Name) {
			rows = append(rows, a.Name)
		}
	}
	if f.Timeline != nil {
		for _, p := range f.Timeline.PerAgent {
			if !slices.Contains(rows, p.Agent) {
				rows = append(rows, p.Agent)
			}
		}
	}
	slices.Sort(rows)
	return rows
}

// writePage renders s into a file and returns its file:// URL and
// findings.json as the browser tests read it.
func writePage(t *testing.T, s *synth.Synthesis, opts fwpage.Options) (string, findingsJSON) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, render(t, s, opts), 0o644); err != nil {
		t.Fatal(err)
	}
	var fj findingsJSON
	if err := json.Unmarshal(must(synth.RenderJSON(s)), &fj); err != nil {
		t.Fatal(err)
	}
	return "file://" + path, fj
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserFile opens the page of the basic run from a file and checks what
// a reader sees against findings.json: the verdict, the counts, one timeline
// row per agent, every agent and every finding; then that it fits a 360 px
// screen without scrolling sideways and that its folds open from the
// keyboard.
func TestBrowserFile(t *testing.T) {
	ctx := browsertest.New(t, 40*time.Second)
	url, fj := writePage(t, loadFixture(t, "basic").synthesize(t), gateOpts)
	do(t, ctx, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(url))
	got := run(t, ctx, chromedp.Evaluate[pageFacts](factsJS))
	if got.Verdict != fj.Verdict || got.VerdictText != fj.Verdict {
		t.Errorf("verdict %q (shown %q), findings.json %q", got.Verdict, got.VerdictText, fj.Verdict)
	}
	for _, sev := range []string{"P0", "P1", "P2", "P3"} {
		if got.Counts[sev] != fj.Counts[sev] {
			t.Errorf("%s: page %d, findings.json %d", sev, got.Counts[sev], fj.Counts[sev])
		}
	}
	if want := fj.wantRows(); !slices.Equal(got.Rows, want) {
		t.Errorf("timeline rows %q, want %q", got.Rows, want)
	}
	var agents []string
	for _, a := range fj.Agents {
		agents = append(agents, a.Name)
	}
	if !slices.Equal(got.Agents, agents) {
		t.Errorf("agents %q, want %q", got.Agents, agents)
	}
	if got.Findings != len(fj.Findings) {
		t.Errorf("%d findings on the page, %d in findings.json", got.Findings, len(fj.Findings))
	}
	if got.Scripts != 0 {
		t.Errorf("the static page runs %d scripts", got.Scripts)
	}

	t.Run("360px", func(t *testing.T) {
		do(t, ctx, chromedp.EmulateViewport(360, 740), chromedp.Navigate(url))
		const widths = `(() => [document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth])()`
		for _, open := range []bool{false, true} {
			if open {
				run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("details").forEach(d => d.open = true), 0`))
			}
			w := run(t, ctx, chromedp.Evaluate[[]int](widths))
			if w[0] > w[2] || w[1] > w[2] {
				t.Errorf("folds open %v: document %d px and body %d px wide in a %d px window: the page scrolls sideways", open, w[0], w[1], w[2])
			}
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		do(t, ctx, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(url))
		// Tab through the page; every fold reachable now must take focus.
		const visible = `[...document.querySelectorAll("summary")].filter(s => s.offsetParent !== null).length`
		want := run(t, ctx, chromedp.Evaluate[int](visible))
		focused := map[int]bool{}
		for range 80 {
			do(t, ctx, chromedp.KeyEvent(kb.Tab))
			i := run(t, ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("summary")].indexOf(document.activeElement)`))
			if i >= 0 {
				focused[i] = true
			}
		}
		if len(focused) < want || want == 0 {
			t.Fatalf("%d of %d folds took the focus from Tab", len(focused), want)
		}
		// Enter on a focused fold opens or closes it.
		const state = `document.getElementById("d-f2").open`
		before := run(t, ctx, chromedp.Evaluate[bool](state))
		run(t, ctx, chromedp.Evaluate[int](`document.querySelector("#d-f2 > summary").focus(), 0`))
		do(t, ctx, chromedp.KeyEvent(kb.Enter))
		if after := run(t, ctx, chromedp.Evaluate[bool](state)); after == before {
			t.Errorf("Enter on the summary of finding 2 left it open=%v", after)
		}
	})
}

// trapJS runs before the page: any script of the page that runs reports
// itself in window.__pwned, and a dialog is recorded too.
const trapJS = `window.__pwned = 0;
Object.defineProperty(window, "__ran", {value: []});
for (const f of ["alert", "confirm", "prompt"]) { window[f] = () => { window.__pwned = f; }; }`

// inertJS opens every fold, lets the page settle and reports what ran and
// what markup the page holds that agent text could have smuggled in.
const inertJS = `new Promise(done => {
  document.querySelectorAll("details").forEach(d => d.open = true);
  setTimeout(() => {
    const all = [...document.querySelectorAll("*")];
    done({
      pwned: String(window.__pwned),
      scripts: document.scripts.length,
      smuggled: document.querySelectorAll("img, iframe, object, embed, a[href^='javascript'], svg [onload], style:not(head style), link, meta[http-equiv='refresh']").length,
      handlers: all.filter(e => [...e.attributes].some(a => a.name.startsWith("on"))).length,
      text: document.body.innerText,
      titles: [...document.querySelectorAll(".ftitle")].map(e => e.textContent),
    });
  }, 300);
})`

type inertFacts struct {
	Pwned    string   `json:"pwned"`
	Scripts  int      `json:"scripts"`
	Smuggled int      `json:"smuggled"`
	Handlers int      `json:"handlers"`
	Text     string   `json:"text"`
	Titles   []string `json:"titles"`
}

// TestBrowserInjection loads the page of the xss run with a trap in place
// and wants every piece of agent markup shown as text, none of it run.
func TestBrowserInjection(t *testing.T) {
	ctx := browsertest.New(t, 40*time.Second)
	url, _ := writePage(t, loadFixture(t, "xss").synthesize(t), gateOpts)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	opened := make(chan string, 8)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			opened <- ev.Message
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: trapJS}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate(url))
	got := run(t, ctx, chromedp.Evaluate[inertFacts](inertJS, chromedp.EvalAwaitPromise))
	if got.Pwned != "0" {
		t.Errorf("agent markup ran: window.__pwned = %s", got.Pwned)
	}
	select {
	case m := <-opened:
		t.Errorf("a dialog opened: %q", m)
	default:
	}
	if got.Scripts != 0 || got.Smuggled != 0 || got.Handlers != 0 {
		t.Errorf("the page holds %d scripts, %d smuggled elements, %d elements with event handlers", got.Scripts, got.Smuggled, got.Handlers)
	}
	for _, text := range []string{
		"<script>window.__pwned=1</script>",
		`"><svg onload=window.__pwned=4></svg><style>body{display:none}</style>`,
		"fd-<img src=x onerror=__pwned=9>",
		"<script>window.__pwned=6</script>",
		"<img src=x onerror=window.__pwned=8>",
	} {
		if !strings.Contains(got.Text, text) && !slices.ContainsFunc(got.Titles, func(s string) bool { return strings.Contains(s, text) }) {
			t.Errorf("the page does not show %q as text", text)
		}
	}
}

// TestScreenshot writes a screenshot of the example run's page (the run
// `fluxwatch demo` writes, evidence checked against its repo) with
// -screenshot FILE; without the flag it does nothing.
func TestScreenshot(t *testing.T) {
	if *screenshot == "" {
		t.Skip("no -screenshot FILE")
	}
	dir := filepath.Join(t.TempDir(), "example")
	if err := demo.Example(dir); err != nil {
		t.Fatal(err)
	}
	v, err := evidence.Open(filepath.Join(dir, "repo"), evidence.Options{Tracked: evidence.EveryFileTracked})
	if err != nil {
		t.Fatal(err)
	}
	s, err := watcher.Synthesize(context.Background(), dir, watcher.ScanOptions{Jobs: 2, MaxLine: 1 << 20}, synth.Options{
		Generator: synth.Generator{Name: "fluxwatch", Version: "dev"}, Evidence: v, EvidenceRepo: "example/repo"})
	if err != nil {
		t.Fatal(err)
	}
	s.Input = "example"
	url, _ := writePage(t, s, fwpage.Options{Gate: synth.Gate{FailOn: parse.NeedsChanges}})
	ctx := browsertest.New(t, 40*time.Second)
	do(t, ctx, chromedp.EmulateViewport(1100, 1500), chromedp.Navigate(url))
	png := run(t, ctx, chromedp.CaptureScreenshot())
	if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
