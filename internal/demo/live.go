package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// LiveDuration is how long the live demo runs at speed 1.
const LiveDuration = 20 * time.Second

// liveAgent is one simulated agent of the live demo: when it starts and
// finishes (at speed 1) and the report it writes.
type liveAgent struct {
	name          string
	start, finish time.Duration
	body          string
	// fails: the agent gives up and leaves an error stub.
	fails bool
}

// userProductReport is fd-user-product's finished report (the example run
// shows it still writing).
const userProductReport = `<!-- run-uuid: ` + ExampleRun + ` -->
---
finished: 2026-11-20T09:58:00Z
---
### Findings Index
- P2 | UP-001 | "Onboarding" | Session expiry logs users out mid-form without warning
- P3 | UP-002 | "Onboarding" | The login error message does not say what to do next
Verdict: safe

## Summary

Per fd-safety's blocking finding on token storage, moving the tokens to an httpOnly cookie changes nothing a user
sees. The expiry behaviour does: a user who takes a while on the signup form loses it.

<!-- flux-drive:complete -->
`

// liveStep is one thing the live demo does at a time after its start.
type liveStep struct {
	at   time.Duration
	what string
	do   func() error
}

// RunLive is `fluxwatch demo --live`: the live demo in dir at speed, each
// step and what to run next told on w. A demo ended by ctx is not an
// error: it says it was interrupted. Its errors are the user's (a speed
// that is no number above 0, a directory that holds a run).
func RunLive(ctx context.Context, w io.Writer, dir string, speed float64) error {
	if err := checkSpeed(speed); err != nil {
		return err
	}
	fmt.Fprintf(w, "live demo in %s: 6 agents over about %s; in another terminal run: fluxwatch watch %s\n",
		dir, time.Duration(float64(LiveDuration)/speed).Round(100*time.Millisecond), dir)
	err := Live(ctx, dir, speed, func(line string) { fmt.Fprintln(w, line) })
	switch {
	case errors.Is(err, ErrNotEmpty), err != nil && ctx.Err() == nil:
		return err
	case ctx.Err() != nil:
		fmt.Fprintln(w, "live demo interrupted")
		return nil
	}
	fmt.Fprintf(w, "done; now run: fluxwatch synth %s\n", dir)
	return nil
}

// checkSpeed is the error of a speed that is no number above 0.
func checkSpeed(speed float64) error {
	if speed <= 0 || math.IsInf(speed, 0) || math.IsNaN(speed) {
		return fmt.Errorf("--speed %v: want a number above 0", speed)
	}
	return nil
}

// Live simulates a review in dir (missing, or holding nothing but fluxwatch's
// own reports and hidden files): six agents of run
// ExampleRun write growing .partial files, share findings on the bus —
// fd-safety a blocking one that later agents acknowledge — and rename their
// reports into place; fd-performance fails with an error stub; a specialist
// writes its findings. It takes LiveDuration divided by speed (> 0), calls
// say with a line about each step as it happens, and stops early with ctx's
// error.
func Live(ctx context.Context, dir string, speed float64, say func(string)) error {
	if err := checkSpeed(speed); err != nil {
		return err
	}
	if err := prepareLive(dir); err != nil {
		return err
	}
	body := func(name string) string {
		for _, f := range exampleFiles {
			if strings.HasPrefix(f.name, name+".") {
				return f.body
			}
		}
		panic("demo: no example report of " + name)
	}
	s := time.Second
	// The reports declare when they finish (front matter finished:, as
	// fluxwatch protocol asks): the moment the demo renames each into
	// place, to the nanosecond, since a fast demo posts and finishes
	// within one second.
	start := time.Now()
	finishing := func(body string, at time.Duration) string {
		when := start.Add(time.Duration(float64(at) / speed)).UTC().Format(time.RFC3339Nano)
		return finishedRe.ReplaceAllLiteralString(body, "finished: "+when)
	}
	agents := []liveAgent{
		{name: "fd-safety", start: 0, finish: 10 * s, body: body("fd-safety")},
		{name: "fd-architecture", start: s / 2, finish: 14 * s, body: body("fd-architecture")},
		{name: "fd-correctness", start: s, finish: 16 * s, body: body("fd-correctness")},
		{name: "fd-quality", start: 3 * s / 2, finish: 18 * s, body: body("fd-quality")},
		{name: "fd-performance", start: 2 * s, finish: 12 * s, body: body("fd-performance"), fails: true},
		{name: "fd-user-product", start: 5 * s / 2, finish: LiveDuration, body: userProductReport},
	}
	var steps []liveStep
	for _, a := range agents {
		a.body = finishing(a.body, a.finish)
		steps = append(steps, a.steps(dir)...)
	}
	busPath := filepath.Join(dir, "peer-findings.jsonl")
	share := func(at time.Duration, e bus.Entry) {
		what := fmt.Sprintf("%s shares a %s finding: %s", e.Agent, e.Severity, e.Summary)
		steps = append(steps, liveStep{at, what, func() error {
			e.Timestamp = time.Now().UTC().Format(time.RFC3339)
			_, err := bus.Append(busPath, e, bus.WriteOptions{})
			return err
		}})
	}
	share(4*s, bus.Entry{Severity: bus.Blocking, Agent: "fd-safety", Category: "auth",
		Summary: "Session tokens stored in localStorage are readable by any script", FileRefs: []string{"web/src/session.ts:18"}})
	share(5*s, bus.Entry{Severity: bus.Notable, Agent: "fd-architecture", Category: "module-boundaries",
		Summary: "Auth middleware reaches into the billing package", FileRefs: []string{"api/middleware/auth.go:77"}})
	share(7*s, bus.Entry{Severity: bus.Blocking, Agent: "fd-architecture", Category: "api", ID: "AR-002", Priority: parse.P1,
		Summary: "Login endpoint has no rate limiting", FileRefs: []string{"api/routes/login.go:40"}})
	share(8*s, bus.Entry{Severity: bus.Blocking, Agent: "fd-safety", Category: "secrets",
		Summary: "Signing key committed in config/dev.env", FileRefs: []string{"config/dev.env:3"}})
	share(12*s, bus.Entry{Severity: bus.Notable, Agent: "fd-correctness", Category: "concurrency",
		Summary: "Refresh races with logout and resurrects the session", FileRefs: []string{"api/routes/refresh.go:52"}})
	for _, f := range exampleFiles {
		if f.name == "findings/frontend.yaml" {
			steps = append(steps, liveStep{15 * s, "specialist frontend writes findings/frontend.yaml", func() error {
				return writeNew(ctx, dir, f.name, f.body)
			}})
		}
	}
	slices.SortStableFunc(steps, func(a, b liveStep) int { return int(a.at - b.at) })

	timer := time.NewTimer(0)
	defer timer.Stop()
	for _, st := range steps {
		at := time.Duration(float64(st.at) / speed)
		timer.Reset(time.Until(start.Add(at)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		if err := st.do(); err != nil {
			return err
		}
		say(fmt.Sprintf("%5.1fs  %s", at.Seconds(), st.what))
	}
	return nil
}

// finishedRe is the finished: line of a report's front matter.
var finishedRe = regexp.MustCompile(`(?m)^finished: .*$`)

// steps are what agent a does: it creates its .partial, which grows in
// pieces, then renames it into place (or, failing, leaves an error stub).
func (a liveAgent) steps(dir string) []liveStep {
	base := a.name + "." + ExampleRun
	partial := filepath.Join(dir, base+".md.partial")
	final := filepath.Join(dir, base+".md")
	lines := strings.SplitAfter(a.body, "\n")
	const pieces = 6
	var steps []liveStep
	for i := range pieces {
		lo, hi := len(lines)*i/pieces, len(lines)*(i+1)/pieces
		chunk := strings.Join(lines[lo:hi], "")
		at := a.start + (a.finish-a.start)*time.Duration(i)/pieces
		what := fmt.Sprintf("%s writes more of its report", a.name)
		if i == 0 {
			what = fmt.Sprintf("%s starts writing %s.md.partial", a.name, base)
		}
		if a.fails && i >= pieces/2 {
			break // it stops writing
		}
		steps = append(steps, liveStep{at, what, func() error { return appendTo(partial, chunk) }})
	}
	if a.fails {
		stub := "<!-- run-uuid: " + ExampleRun + " -->\n### Findings Index\nVerdict: error\n\n" +
			"Agent failed to produce findings after retry. Error: context deadline exceeded\n"
		return append(steps, liveStep{a.finish, a.name + " fails: error stub renamed into place", func() error {
			if err := os.WriteFile(partial, []byte(stub), 0o644); err != nil {
				return err
			}
			return os.Rename(partial, final)
		}})
	}
	return append(steps, liveStep{a.finish, a.name + " finishes: .partial renamed to " + base + ".md", func() error {
		return os.Rename(partial, final)
	}})
}

// prepareLive creates dir, refusing one that holds files other than
// fluxwatch's own reports and hidden files: a watcher may have started first.
func prepareLive(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if parse.ClassifyName(e.Name()).Kind != parse.KindOwn && !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
		}
	}
	return os.MkdirAll(dir, 0o755)
}

func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeNew writes dir/rel atomically, the way `fluxwatch plan` writes.
func writeNew(ctx context.Context, dir, rel, content string) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	_, err := fsio.WriteFile(ctx, path, []byte(content), 0o644)
	return err
}
