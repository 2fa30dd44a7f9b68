package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsnotifytest"
	"github.com/fluxwatch/fluxwatch/parse"
)

var churnFor = flag.Duration("churn", 10*time.Second, "how long TestWatchChurn changes the directory (make churn: 30s)")

// watchInProcess runs `fluxwatch watch ARGS` until the returned stop is
// called; stop returns the command's error and what it printed.
func watchInProcess(t *testing.T, getenv func(string) string, args ...string) (stop func() (error, string)) {
	t.Helper()
	var out, errb syncBuffer
	e := bareEnv(&out, &errb)
	e.getenv = getenv
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"watch"}, args...), e) }()
	stopped := false
	var err error
	stop = func() (error, string) {
		if !stopped {
			cancel()
			err, stopped = <-done, true
		}
		return err, out.String() + errb.String()
	}
	t.Cleanup(func() { stop() })
	return stop
}

// synthOnce runs `fluxwatch synth -q --out OUT ARGS` in process and returns
// findings.json.
func synthOnce(t *testing.T, getenv func(string) string, out string, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := bareEnv(&stdout, &stderr)
	e.getenv = getenv
	if err := run(context.Background(), append([]string{"synth", "-q", "--out", out}, args...), e); err != nil {
		t.Fatalf("synth: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// awaitFile waits until the file at path satisfies ok, failing after
// timeout with what it last held.
func awaitFile(t *testing.T, path string, timeout time.Duration, what string, ok func([]byte) bool) []byte {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		data, err := os.ReadFile(path)
		if err == nil && ok(data) {
			return data
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v; %s holds:\n%s", what, timeout, path, data)
		}
		time.Sleep(time.Millisecond)
	}
}

// churner makes random changes to a run directory the way a crowd of
// misbehaving agents would.
type churner struct {
	t   *testing.T
	dir string
	r   *rand.Rand
	ops map[string]int
	// held is the rest of a bus line written in two pieces.
	held map[string]string
}

var churnAgents = []string{"fd-a", "fd-b", "fd-c", "fd-d", "fd-e", "fd-f"}

const churnRun = "5f0e9a51-2d8c-4b7d-9a51-7c1e2f604b7d"

var churnTitles = []string{
	"Tokens in localStorage", "Tokens kept in local storage", "Login has no rate limiting",
	"Signing key committed", "Refresh races with logout", "Migration drops a column",
	"Unbounded retry loop", "Missing authorization check",
}

func (c *churner) name() string {
	a := churnAgents[c.r.IntN(len(churnAgents))]
	if c.r.IntN(3) == 0 {
		a += "." + churnRun
	}
	return a
}

// report is a random agent report in one of the formats agents write.
func (c *churner) report() string {
	var b strings.Builder
	n := c.r.IntN(4)
	switch c.r.IntN(4) {
	case 0:
		b.WriteString("### Findings Index\n")
		for i := range n {
			fmt.Fprintf(&b, "- P%d | AR-%03d | \"Auth\" | %s\n", c.r.IntN(4), i+1, churnTitles[c.r.IntN(len(churnTitles))])
		}
		b.WriteString("Verdict: needs-changes\n<!-- flux-drive:complete -->\n")
	case 1:
		b.WriteString("# Review\n\n## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n")
		for i := range n {
			fmt.Fprintf(&b, "| SF-%02d | %s | API | %s |\n", i+1, []string{"CRITICAL", "HIGH", "LOW"}[c.r.IntN(3)],
				churnTitles[c.r.IntN(len(churnTitles))])
		}
		b.WriteString("\n**Verdict: risky**\n\nPer fd-a's finding on `web/session.ts:18`.\n")
	case 2:
		b.WriteString("# Notes\n\n## Issues\n\n")
		for range n {
			fmt.Fprintf(&b, "### P%d — %s\n\nSee `web/session.ts:%d`.\n\n", c.r.IntN(4), churnTitles[c.r.IntN(len(churnTitles))], 1+c.r.IntN(40))
		}
	default:
		b.WriteString("### Findings Index\nVerdict: error\n\nAgent failed to produce findings after retry. Error: timeout\n")
	}
	return b.String()
}

func (c *churner) path(name string) string { return filepath.Join(c.dir, name) }

// step makes one random change.
func (c *churner) step() {
	ops := []func() string{
		func() string { // an agent writes (or rewrites in place) its .partial
			os.WriteFile(c.path(c.name()+".md.partial"), []byte(c.report()), 0o644)
			return "write partial"
		},
		func() string { // a .partial grows
			f, err := os.OpenFile(c.path(c.name()+".md.partial"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err == nil {
				fmt.Fprintf(f, "- P%d | AR-%03d | \"Auth\" | %s\n", c.r.IntN(4), c.r.IntN(99), churnTitles[c.r.IntN(len(churnTitles))])
				f.Close()
			}
			return "grow partial"
		},
		func() string { // the rename into place
			n := c.name()
			os.Rename(c.path(n+".md.partial"), c.path(n+".md"))
			return "rename partial"
		},
		func() string { // a report rewritten in place, not atomically
			os.WriteFile(c.path(c.name()+".md"), []byte(c.report()), 0o644)
			return "write report"
		},
		func() string { // a report renamed to another agent's name
			os.Rename(c.path(c.name()+".md"), c.path(c.name()+".md"))
			return "rename report"
		},
		func() string {
			os.Remove(c.path(c.name() + []string{".md", ".md.partial", ".abort"}[c.r.IntN(3)]))
			return "delete"
		},
		func() string {
			p := c.path(c.name() + []string{".md", ".md.partial"}[c.r.IntN(2)])
			if fi, err := os.Stat(p); err == nil {
				os.Truncate(p, c.r.Int64N(fi.Size()+1))
			}
			return "truncate"
		},
		func() string {
			os.WriteFile(c.path(c.name()+".abort"), nil, 0o644)
			return "abort"
		},
		func() string { // a bus append through the writer
			c.busAppend()
			return "bus append"
		},
		func() string { // a bus line written in two pieces
			name := parse.BusNames[c.r.IntN(2)]
			if rest, ok := c.held[name]; ok {
				c.appendRaw(name, rest)
				delete(c.held, name)
				return "bus rest of line"
			}
			line := string(bus.Encode(c.entry()))
			cut := 1 + c.r.IntN(len(line)-1)
			c.appendRaw(name, line[:cut])
			c.held[name] = line[cut:]
			return "bus half line"
		},
		func() string {
			if c.r.IntN(2) == 0 {
				os.WriteFile(c.path("findings/frontend.yaml"), []byte("specialist_name: frontend\nnotes: n\napproaches:\n  - number: 1\n    description: d\n"), 0o644)
			} else {
				os.WriteFile(c.path("findings/frontend.yaml"), []byte("specialist_name: [frontend\n"), 0o644)
			}
			return "yaml"
		},
	}
	// Bus appends are as frequent as all the rest together.
	i := c.r.IntN(len(ops) * 2)
	if i >= len(ops) {
		i = 8
	}
	c.ops[ops[i]()]++
}

func (c *churner) entry() bus.Entry {
	return bus.Entry{Severity: []string{bus.Blocking, bus.Notable}[c.r.IntN(2)], Agent: churnAgents[c.r.IntN(len(churnAgents))],
		Category: "auth", Summary: churnTitles[c.r.IntN(len(churnTitles))], FileRefs: []string{fmt.Sprintf("web/session.ts:%d", 1+c.r.IntN(40))},
		Timestamp: time.Now().UTC().Format(time.RFC3339)}
}

func (c *churner) busAppend() {
	name := parse.BusNames[c.r.IntN(2)]
	if _, ok := c.held[name]; ok {
		return // a line is half written: the writer's lock would not help
	}
	if _, err := bus.Append(c.path(name), c.entry(), bus.WriteOptions{NoSync: true}); err != nil {
		c.t.Fatal(err)
	}
}

func (c *churner) appendRaw(name, s string) {
	f, err := os.OpenFile(c.path(name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

// TestWatchChurn changes a watched directory at random for -churn (default
// 10 s: agent files created, grown, rewritten, renamed, deleted, truncated,
// aborted; bus appends whole and in pieces; a YAML file that breaks and
// heals), then checks that once the directory is quiet the watcher's
// findings.json equals synth's byte for byte; then appends to the bus alone
// for a fifth of that (a line may be left half written) and checks again,
// and once more after the watcher exits.
func TestWatchChurn(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.MkdirAll(filepath.Join(dir, "findings"), 0o755)
	getenv := func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1795000000"
		}
		return ""
	}
	stop := watchInProcess(t, getenv, "-q", dir)
	findings := filepath.Join(dir, "findings.json")
	awaitFile(t, findings, 30*time.Second, "first report", json.Valid)

	// One completed report that the churn leaves alone, so that the live
	// verdict (pending while nothing completed) is synth's at the end.
	os.WriteFile(filepath.Join(dir, "fd-z.md"), []byte("### Findings Index\n- P2 | Z-001 | \"Z\" | Anchor\nVerdict: safe\n"), 0o644)
	c := &churner{t: t, dir: dir, r: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 4)), ops: map[string]int{}, held: map[string]string{}}
	steps := 0
	for start := time.Now(); time.Since(start) < *churnFor; steps++ {
		c.step()
		if c.r.IntN(4) == 0 {
			time.Sleep(time.Duration(c.r.IntN(3000)) * time.Microsecond) // bursts and pauses
		}
	}
	// Finish the half-written lines.
	for name, rest := range c.held {
		c.appendRaw(name, rest)
	}
	t.Logf("%d changes in %v: %v", steps, *churnFor, c.ops)

	want := synthOnce(t, getenv, filepath.Join(root, "synth"), dir)
	// The watcher settles within its debounce, or KeepGood for a file left
	// truncated or broken.
	awaitFile(t, findings, 30*time.Second, "after the churn, the watcher's findings.json equal to synth's", func(got []byte) bool {
		return bytes.Equal(got, want)
	})

	// Then the bus alone, reports unchanged: the synthesis follows the
	// appends incrementally, which the end of the churn (reports changing,
	// the whole bus read again) may have hidden.
	for start := time.Now(); time.Since(start) < *churnFor/5; {
		if c.r.IntN(3) == 0 {
			c.ops["bus append"]++
			c.busAppend()
		} else {
			c.ops["bus piece"]++
			name := parse.BusNames[c.r.IntN(2)]
			if rest, ok := c.held[name]; ok {
				c.appendRaw(name, rest)
				delete(c.held, name)
			} else {
				line := string(bus.Encode(c.entry()))
				cut := 1 + c.r.IntN(len(line)-1)
				c.appendRaw(name, line[:cut])
				c.held[name] = line[cut:]
			}
		}
		time.Sleep(time.Duration(c.r.IntN(2000)) * time.Microsecond)
	}
	want = synthOnce(t, getenv, filepath.Join(root, "synth"), dir)
	awaitFile(t, findings, 30*time.Second, "after the bus appends, the watcher's findings.json equal to synth's", func(got []byte) bool {
		return bytes.Equal(got, want)
	})
	err, out := stop()
	if err != nil {
		t.Fatalf("watch: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(findings); !bytes.Equal(got, want) {
		t.Errorf("the final findings.json differs from synth's")
	}
}

// TestWatchAtomicReports: a reader polling findings.json while the watcher
// renames 1,000 new versions of it into place (bus appends make the changes)
// never reads anything but complete, valid JSON.
func TestWatchAtomicReports(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "fd-a.md"), []byte("### Findings Index\n- P1 | A-001 | \"Auth\" | Tokens\nVerdict: needs-changes\n"), 0o644)
	stop := watchInProcess(t, func(string) string { return "" }, "-q", dir)
	findings := filepath.Join(dir, "findings.json")
	awaitFile(t, findings, 30*time.Second, "first report", json.Valid)
	fw := fsnotifytest.Watch(t, dir)

	done := make(chan struct{})
	type result struct {
		reads, bad int
		sample     []byte
	}
	res := make(chan result)
	go func() { // the reader
		var r result
		for {
			select {
			case <-done:
				res <- r
				return
			default:
			}
			data, err := os.ReadFile(findings)
			if err != nil {
				r.bad++
				r.sample = []byte(err.Error())
				continue
			}
			r.reads++
			if !json.Valid(data) {
				r.bad++
				r.sample = data
			}
			time.Sleep(200 * time.Microsecond) // leave the watcher a core
		}
	}()
	// Up to 1,000 rewrites, or as many as a minute allows on a loaded
	// machine; at least minRewrites must overlap the reader for the test to
	// say anything.
	const rewrites, minRewrites = 1000, 100
	busPath := filepath.Join(dir, "peer-findings.jsonl")
	renamed, appended := 0, 0
	timeout := time.NewTimer(time.Minute)
	defer func() {
		select {
		case <-done:
		default:
			close(done) // a failure must not leave the reader running
			<-res
		}
	}()
	timedOut := false
	for renamed < rewrites && !timedOut {
		// One append at a time, the next once the report changed (or after
		// 2 ms): most appends make a rewrite of their own.
		appended++
		if _, err := bus.Append(busPath, bus.Entry{Severity: bus.Notable, Agent: "fd-b", Category: "c",
			Summary: fmt.Sprintf("note %d", appended)}, bus.WriteOptions{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		wait := time.NewTimer(2 * time.Millisecond)
	events:
		for {
			select {
			case ev := <-fw.Events:
				if filepath.Base(ev.Name) == "findings.json" && ev.Has(fsnotify.Create) {
					renamed++ // a rename into place
					break events
				}
			case err := <-fw.Errors:
				t.Fatalf("fsnotify: %v", err)
			case <-wait.C:
				break events
			case <-timeout.C:
				timedOut = true
				break events
			}
		}
		wait.Stop()
	}
	close(done)
	r := <-res
	if err, out := stop(); err != nil {
		t.Fatalf("watch: %v\n%s", err, out)
	}
	t.Logf("%d rewrites (%d appends), %d reads by the reader", renamed, appended, r.reads)
	if r.bad > 0 {
		t.Fatalf("%d of %d reads were not valid JSON; one:\n%s", r.bad, r.reads+r.bad, r.sample)
	}
	if renamed < minRewrites {
		t.Fatalf("only %d rewrites in a minute (want at least %d)", renamed, minRewrites)
	}
	if r.reads < renamed {
		t.Errorf("the reader read only %d times during %d rewrites: it did not overlap them", r.reads, renamed)
	}
}
