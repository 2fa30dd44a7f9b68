package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/fluxwatch/fluxwatch/internal/browsertest"
)

// watchProcess is `fluxwatch watch --serve` running as its own process (this
// test binary, run as the fluxwatch command through TestMain).
type watchProcess struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

var liveURL = regexp.MustCompile(`live page at (http://\S+)`)

func startServe(t *testing.T, dir, addr string) *watchProcess {
	t.Helper()
	cmd := exec.Command(testBinaryAsFluxwatch(t), "watch", "-q", "--no-evidence", "--serve", addr, dir)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "NO_COLOR=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &watchProcess{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := liveURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			} else {
				t.Logf("watch: %s", sc.Text())
			}
		}
		io.Copy(io.Discard, stderr)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	// A timer stopped on return, not time.After: TestLiveViewFrame sets
	// time.Local, and a timer firing later in the process reads it.
	limit := time.NewTimer(20 * time.Second)
	defer limit.Stop()
	select {
	case p.url = <-found:
	case err := <-p.done:
		t.Fatalf("watch --serve exited: %v", err)
	case <-limit.C:
		t.Fatal("watch --serve printed no URL")
	}
	return p
}

// waitPage polls the page until cond (a JavaScript expression) holds,
// failing after within; it returns how long that took.
func waitPage(t *testing.T, ctx context.Context, cond string, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("after %v the page still does not satisfy %s (err %v)", within, cond, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func writeAtomic(t *testing.T, path, data string) {
	t.Helper()
	tmp := path + ".tmp-test"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

// TestServeBrowser drives headless Chromium against `watch --serve`: the
// live page matches findings.json; a new report and a new bus line show
// within 2 s, their markup inert; SIGTERM ends the process within a second;
// the page reconnects to a server started again on the same address and
// keeps updating.
func TestServeBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ctx := browsertest.New(t, 90*time.Second)
	dir := t.TempDir()
	writeAtomic(t, filepath.Join(dir, "fd-a.md"), "### Findings Index\n- P1 | AA-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n<!-- flux-drive:complete -->\n")
	bus := filepath.Join(dir, "findings.jsonl")
	appendLine(t, bus, `{"severity":"notable","agent":"fd-a","category":"auth","summary":"First peer finding","file_refs":[],"timestamp":"2026-11-20T09:00:00Z"}`)

	w := startServe(t, dir, "127.0.0.1:0")
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__pwned = 0; for (const f of ["alert", "confirm", "prompt"]) { window[f] = () => { window.__pwned = f; }; }`}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(w.url)); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, `document.getElementById("verdict").textContent === "needs-changes"`, 5*time.Second)
	waitPage(t, ctx, `document.getElementById("live").textContent === "live"`, 5*time.Second)

	// The page and findings.json agree.
	resp, err := http.Get(w.url + "findings.json")
	if err != nil {
		t.Fatal(err)
	}
	var fj struct {
		Verdict string         `json:"verdict"`
		Counts  map[string]int `json:"counts"`
	}
	json.NewDecoder(resp.Body).Decode(&fj)
	resp.Body.Close()
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](
		`Object.fromEntries([...document.querySelectorAll(".chips li[data-sev]")].map(li => [li.dataset.sev, +li.querySelector("b").textContent]))`))
	if err != nil {
		t.Fatal(err)
	}
	if fj.Verdict != "needs-changes" || shown["P1"] != fj.Counts["P1"] || shown["P0"] != fj.Counts["P0"] {
		t.Fatalf("page counts %v, findings.json %s %v", shown, fj.Verdict, fj.Counts)
	}

	// A new report, whose title is markup, shows within 2 s, as text.
	writeAtomic(t, filepath.Join(dir, "fd-b.md"), "### Findings Index\n- P0 | BB-001 | \"Auth\" | <img src=x onerror=__pwned=1>\nVerdict: risky\n<!-- flux-drive:complete -->\n")
	took := waitPage(t, ctx, `document.getElementById("verdict").textContent === "risky" &&
		[...document.querySelectorAll("svg.tl g.row")].map(g => g.dataset.agent).join() === "fd-a,fd-b" &&
		document.body.innerText.includes("<img src=x onerror=__pwned=1>")`, 2*time.Second)
	t.Logf("new report on the page after %v", took)

	// A new bus line shows within 2 s.
	appendLine(t, bus, `{"severity":"blocking","agent":"fd-b","category":"auth","summary":"Peer says <script>__pwned=2</script>","file_refs":[],"timestamp":"2026-11-20T09:05:00Z"}`)
	took = waitPage(t, ctx, `document.body.innerText.includes("Peer says <script>__pwned=2</script>")`, 2*time.Second)
	t.Logf("new bus line on the page after %v", took)
	if p, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.__pwned) + "/" + document.querySelectorAll("img, #report script").length`)); err != nil || p != "0/0" {
		t.Fatalf("agent markup ran or landed in the live page: %q %v", p, err)
	}

	// SIGTERM ends watch, its server included, within a second.
	start := time.Now()
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	limit := time.NewTimer(3 * time.Second)
	defer limit.Stop()
	select {
	case err := <-w.done:
		w.done <- err // for Cleanup
		t.Logf("watch --serve exited %v after SIGTERM (%v)", time.Since(start), err)
		if time.Since(start) > time.Second {
			t.Errorf("watch --serve took %v to exit after SIGTERM", time.Since(start))
		}
	case <-limit.C:
		t.Fatal("watch --serve still running 3 s after SIGTERM")
	}
	waitPage(t, ctx, `document.getElementById("live").textContent !== "live"`, 5*time.Second)

	// Started again on the same address, the server gets the page back: the
	// browser reconnects by itself and the page keeps updating.
	addr := strings.TrimSuffix(strings.TrimPrefix(w.url, "http://"), "/")
	startServe(t, dir, addr)
	waitPage(t, ctx, `document.getElementById("live").textContent === "live"`, 5*time.Second)
	writeAtomic(t, filepath.Join(dir, "fd-c.md"), "### Findings Index\n- P2 | CC-001 | \"Docs\" | Third agent after the reconnect\nVerdict: safe\n<!-- flux-drive:complete -->\n")
	took = waitPage(t, ctx, `document.body.innerText.includes("Third agent after the reconnect")`, 2*time.Second)
	t.Logf("after the reconnect, new report on the page after %v", took)
}
