package watcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/internal/fsnotifytest"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// fakeSource hands the watcher the events a test sends.
type fakeSource struct {
	events  chan fsnotify.Event
	errs    chan error
	added   []string
	removed []string
}

func (f *fakeSource) Add(dir string) error          { f.added = append(f.added, dir); return nil }
func (f *fakeSource) Remove(dir string) error       { f.removed = append(f.removed, dir); return nil }
func (f *fakeSource) Events() <-chan fsnotify.Event { return f.events }
func (f *fakeSource) Errors() <-chan error          { return f.errs }
func (f *fakeSource) Close() error                  { return nil }

// harness runs a Watcher on a fake event source inside a synctest bubble.
type harness struct {
	t       *testing.T
	dir     string
	src     *fakeSource
	updates chan *Update
	done    chan error
	cancel  context.CancelFunc
	w       *Watcher
}

func startWatch(t *testing.T, dir string, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, dir: dir, src: &fakeSource{events: make(chan fsnotify.Event), errs: make(chan error)},
		updates: make(chan *Update, 100), done: make(chan error, 1)}
	w := New(dir, opts)
	h.w = w
	w.newSource = func() (source, error) { return h.src, nil }
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() {
		h.done <- w.Run(ctx, func(u *Update) error {
			h.updates <- u
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-h.done
	})
	return h
}

// next returns the update the watcher made, failing when there is none once
// every goroutine is blocked.
func (h *harness) next() *Update {
	h.t.Helper()
	synctest.Wait()
	select {
	case u := <-h.updates:
		return u
	default:
		h.t.Fatalf("no update")
		return nil
	}
}

// none fails when the watcher made an update.
func (h *harness) none(when string) {
	h.t.Helper()
	synctest.Wait()
	select {
	case u := <-h.updates:
		h.t.Fatalf("%s: unexpected update (%d entries appended, diagnostics %v)", when, len(u.Appended), u.Diagnostics)
	default:
	}
}

// write writes dir/rel and sends the event a filesystem would.
func (h *harness) write(rel, content string) {
	h.t.Helper()
	path := filepath.Join(h.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	h.src.events <- fsnotify.Event{Name: path, Op: fsnotify.Write}
}

func (h *harness) appendBus(rel, content string) {
	h.t.Helper()
	path := filepath.Join(h.dir, rel)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		h.t.Fatal(err)
	}
	f.WriteString(content)
	f.Close()
	h.src.events <- fsnotify.Event{Name: path, Op: fsnotify.Write}
}

func (h *harness) rename(from, to string) {
	h.t.Helper()
	if err := os.Rename(filepath.Join(h.dir, from), filepath.Join(h.dir, to)); err != nil {
		h.t.Fatal(err)
	}
	h.src.events <- fsnotify.Event{Name: filepath.Join(h.dir, from), Op: fsnotify.Rename}
	h.src.events <- fsnotify.Event{Name: filepath.Join(h.dir, to), Op: fsnotify.Create}
}

func report(findings ...string) string {
	var b strings.Builder
	b.WriteString("### Findings Index\n")
	verdict := "safe"
	for i, f := range findings {
		sev, title, _ := strings.Cut(f, " ")
		fmt.Fprintf(&b, "- %s | AR-%03d | \"Auth\" | %s\n", sev, i+1, title)
		if sev == "P0" {
			verdict = "risky"
		} else if sev == "P1" && verdict == "safe" {
			verdict = "needs-changes"
		}
	}
	fmt.Fprintf(&b, "Verdict: %s\n<!-- flux-drive:complete -->\n", verdict)
	return b.String()
}

func busLine(agent, sev, summary string) string {
	return fmt.Sprintf(`{"severity":%q,"agent":%q,"category":"auth","summary":%q,"file_refs":[]}`+"\n", sev, agent, summary)
}

func statusOf(s *synth.Synthesis, name string) parse.Status {
	for _, a := range s.Agents {
		if a.Name == name {
			return a.Status
		}
	}
	return ""
}

// checkMatchesScan checks that the synthesis of u equals a one-shot scan
// and synthesis of the directory (watching).
func checkMatchesScan(t *testing.T, dir string, u *Update, expect ...string) {
	t.Helper()
	run, err := Scan(context.Background(), dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := must(synth.RenderJSON(synth.Synthesize(run, synth.Options{Watching: !u.Final, Expect: expect})))
	if got := must(synth.RenderJSON(u.Synthesis)); !bytes.Equal(got, want) {
		t.Errorf("watcher synthesis differs from a one-shot scan:\n%s\nwant\n%s", got, want)
	}
}

func TestWatchDebounce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := startWatch(t, dir, Options{Debounce: 50 * time.Millisecond})
		if u := h.next(); u.Synthesis.Verdict != parse.Pending || len(u.Synthesis.Agents) != 0 {
			t.Fatalf("first update: verdict %s, %d agents; want pending, none", u.Synthesis.Verdict, len(u.Synthesis.Agents))
		}
		if !slices.Contains(h.src.added, dir) {
			t.Errorf("watched %v, want the directory", h.src.added)
		}

		h.write("fd-a.md.partial", "### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens\n")
		h.none("at once")
		time.Sleep(49 * time.Millisecond)
		h.none("after 49ms")
		time.Sleep(time.Millisecond)
		u := h.next()
		if got := statusOf(u.Synthesis, "fd-a"); got != parse.StatusPartial {
			t.Errorf("after the debounce: fd-a is %q, want partial", got)
		}

		// A file written every 20 ms is still read at least every 500 ms.
		start := time.Now()
		for i := 0; ; i++ {
			h.write("fd-a.md.partial", fmt.Sprintf("### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens %d\n", i))
			time.Sleep(20 * time.Millisecond)
			synctest.Wait()
			if len(h.updates) > 0 {
				break
			}
			if time.Since(start) > 500*time.Millisecond {
				t.Fatalf("no update after %v of constant writes", time.Since(start))
			}
		}
		<-h.updates

		// The rename into place is the completion signal.
		time.Sleep(time.Second)
		h.write("fd-a.md.partial", report("P1 Tokens in localStorage"))
		time.Sleep(50 * time.Millisecond)
		h.next()
		h.rename("fd-a.md.partial", "fd-a.md")
		time.Sleep(50 * time.Millisecond)
		u = h.next()
		if got := statusOf(u.Synthesis, "fd-a"); got != parse.StatusValid || u.Synthesis.Verdict != parse.NeedsChanges {
			t.Errorf("after the rename: fd-a %q, verdict %s; want valid, needs-changes", got, u.Synthesis.Verdict)
		}
		if at := u.Agents["fd-a"]; at.Done.IsZero() || at.FirstSeen.IsZero() || !at.Done.After(at.FirstSeen) {
			t.Errorf("agent clocks %+v", at)
		}
		checkMatchesScan(t, dir, u)

		// Files that are not inputs are not read: no update.
		for _, rel := range []string{"summary.md", "findings.json", ".findings.json.123.tmp", "findings.jsonl.lock", "notes.txt", "fd-a.md~"} {
			h.write(rel, "x")
		}
		time.Sleep(time.Second)
		h.none("after writes of files that are not inputs")
	})
}

func TestWatchBus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "fd-a.md", report("P1 Tokens in localStorage"), 0)
		write(t, dir, "findings.jsonl", busLine("fd-b", "notable", "first"), 0)
		h := startWatch(t, dir, Options{})
		u := h.next()
		if len(u.Appended) != 0 || u.Synthesis.Timeline == nil || u.Synthesis.Timeline.Total != 1 {
			t.Fatalf("first update: %d appended, timeline %+v; want the bus in the synthesis only", len(u.Appended), u.Synthesis.Timeline)
		}

		// An append is read at once, no debounce.
		h.appendBus("findings.jsonl", busLine("fd-b", "blocking", "Tokens in localStorage"))
		u = h.next()
		if len(u.Appended) != 1 || u.Appended[0].Seq != 2 || u.Appended[0].Line != 2 || u.Appended[0].Summary != "Tokens in localStorage" {
			t.Fatalf("after an append: %+v", u.Appended)
		}
		if u.Synthesis.Timeline.Total != 2 || deref2(u.Synthesis.Findings[0].DiscoveredBy()) != "fd-b" {
			t.Errorf("timeline total %d, discovered by %v", u.Synthesis.Timeline.Total, u.Synthesis.Findings[0].DiscoveredBy())
		}

		// Half a line: held; the rest: read.
		line := busLine("fd-c", "notable", "third")
		h.appendBus("findings.jsonl", line[:10])
		u = h.next()
		if len(u.Appended) != 0 || !hasDiag(u.Synthesis.Diagnostics, "incomplete record") {
			t.Errorf("after half a line: %d appended, diagnostics %v", len(u.Appended), u.Synthesis.Diagnostics)
		}
		checkMatchesScan(t, dir, u)
		h.appendBus("findings.jsonl", line[10:])
		if u = h.next(); len(u.Appended) != 1 || u.Appended[0].Agent != "fd-c" || hasDiag(u.Synthesis.Diagnostics, "incomplete record") {
			t.Errorf("after the rest: %+v, diagnostics %v", u.Appended, u.Synthesis.Diagnostics)
		}

		// An invalid line: a diagnostic of the synthesis.
		h.appendBus("findings.jsonl", "{not json\n")
		if u = h.next(); !hasDiag(u.Synthesis.Diagnostics, "findings.jsonl:4") {
			t.Errorf("after an invalid line: diagnostics %v", u.Synthesis.Diagnostics)
		}

		// The second bus file comes after the first in the timeline.
		h.appendBus("peer-findings.jsonl", busLine("fd-d", "notable", "fifth"))
		u = h.next()
		if len(u.Appended) != 1 || u.Appended[0].Seq != 4 || u.Appended[0].File != "peer-findings.jsonl" {
			t.Errorf("after an append to the second file: %+v", u.Appended)
		}
		checkMatchesScan(t, dir, u)

		// Truncated: read again from the start, with a diagnostic of the
		// watcher's own.
		h.write("findings.jsonl", busLine("fd-e", "notable", "rewritten"))
		u = h.next()
		if len(u.Diagnostics) != 1 || !strings.Contains(u.Diagnostics[0].Message, "reading again from the start") {
			t.Errorf("after truncation: diagnostics %v", u.Diagnostics)
		}
		if len(u.Appended) != 1 || u.Appended[0].Agent != "fd-e" || u.Appended[0].Line != 1 {
			t.Errorf("after truncation: appended %+v", u.Appended)
		}
		checkMatchesScan(t, dir, u)

		// Removed: gone from the synthesis.
		os.Remove(filepath.Join(dir, "peer-findings.jsonl"))
		h.src.events <- fsnotify.Event{Name: filepath.Join(dir, "peer-findings.jsonl"), Op: fsnotify.Remove}
		u = h.next()
		checkMatchesScan(t, dir, u)
	})
}

func TestWatchStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := startWatch(t, dir, Options{StallTimeout: 5 * time.Second, Rescan: -1})
		h.next()
		h.write("fd-slow.md.partial", "### Findings Index\n")
		time.Sleep(50 * time.Millisecond)
		h.next()
		// The watcher saw it at the read, after the debounce.
		time.Sleep(5*time.Second - time.Millisecond)
		h.none("before the stall timeout")
		time.Sleep(time.Millisecond)
		u := h.next()
		if len(u.Stalled) != 1 || u.Stalled[0].Agent != "fd-slow" || u.Stalled[0].Idle != 5*time.Second || !u.Agents["fd-slow"].Stalled {
			t.Fatalf("at the stall timeout: stalled %+v, clocks %+v", u.Stalled, u.Agents)
		}
		time.Sleep(time.Minute)
		h.none("once stalled")

		// It grows again: no longer stalled; it stalls again later.
		h.write("fd-slow.md.partial", "### Findings Index\n- P2 | AR-001 | \"A\" | B\n")
		time.Sleep(50 * time.Millisecond)
		if u = h.next(); u.Agents["fd-slow"].Stalled {
			t.Errorf("after growing: still stalled")
		}
		time.Sleep(5 * time.Second)
		if u = h.next(); len(u.Stalled) != 1 {
			t.Errorf("second stall: %+v", u.Stalled)
		}
	})
}

// A .partial that has not grown for an hour when the watch starts is idle
// for an hour, not since the watch first saw it: it stalls at once.
func TestWatchStallCountsFromModTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "fd-old.md.partial", "### Findings Index\n", 0)
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(filepath.Join(dir, "fd-old.md.partial"), old, old); err != nil {
			t.Fatal(err)
		}
		h := startWatch(t, dir, Options{StallTimeout: 5 * time.Second, Rescan: -1})
		u := h.next()
		if len(u.Stalled) == 0 {
			time.Sleep(time.Millisecond) // the stall may come as the next update, at once
			u = h.next()
		}
		if len(u.Stalled) != 1 || u.Stalled[0].Agent != "fd-old" || u.Stalled[0].Idle < time.Hour {
			t.Errorf("an hour-old .partial at start: stalled %+v, want fd-old idle an hour", u.Stalled)
		}
	})
}

func TestWatchUntilComplete(t *testing.T) {
	t.Run("expect", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			dir := t.TempDir()
			h := startWatch(t, dir, Options{UntilComplete: true, Synth: synth.Options{Expect: []string{"fd-a", "fd-b"}}})
			if u := h.next(); statusOf(u.Synthesis, "fd-b") != parse.StatusPartial {
				t.Errorf("an expected agent without a file: %q, want partial while watching", statusOf(u.Synthesis, "fd-b"))
			}
			h.write("fd-a.md", report("P2 Minor"))
			time.Sleep(50 * time.Millisecond)
			h.next()
			h.none("with fd-b missing")
			h.write("fd-b.abort", "")
			time.Sleep(50 * time.Millisecond)
			h.next()
			u := h.next()
			if !u.Final || u.Synthesis.Verdict != parse.Safe {
				t.Fatalf("after fd-b aborted: final %v verdict %s; want a final safe update", u.Final, u.Synthesis.Verdict)
			}
			if err := <-h.done; err != nil {
				t.Errorf("Run = %v", err)
			}
			h.done <- nil // for the cleanup
		})
	})
	// A stranger's hang: fd-b's .partial stops growing. With a stall
	// timeout, it counts as failed once stalled, and the run completes.
	// Before, the watch waited for it for ever.
	t.Run("stalled agent", func(t *testing.T) {
		for _, expect := range [][]string{{"fd-a", "fd-b"}, nil} {
			t.Run(fmt.Sprintf("expect %v", expect), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					dir := t.TempDir()
					h := startWatch(t, dir, Options{UntilComplete: true, StallTimeout: 5 * time.Second, Settle: time.Second,
						Rescan: -1, Synth: synth.Options{Expect: expect}})
					h.next()
					h.write("fd-b.md.partial", "### Findings Index\n- P1 | B-001 | \"A\" | Half\n")
					h.write("fd-a.md", report("P2 Minor"))
					time.Sleep(50 * time.Millisecond)
					if u := h.next(); statusOf(u.Synthesis, "fd-b") != parse.StatusPartial {
						t.Fatalf("fd-b writing: %q, want partial", statusOf(u.Synthesis, "fd-b"))
					}
					time.Sleep(4 * time.Second)
					h.none("before the stall timeout")
					time.Sleep(time.Second)
					var u *Update
					for u == nil || !u.Final {
						u = h.next()
						time.Sleep(time.Second) // the settle time, without --expect
					}
					if !slices.Equal(u.Synthesis.AgentsFailed, []string{"fd-b"}) || len(u.Synthesis.AgentsPartial) != 0 ||
						u.Synthesis.Verdict != parse.Safe || statusOf(u.Synthesis, "fd-b") != parse.StatusError {
						t.Errorf("final: failed %v partial %v verdict %s fd-b %q; want fd-b failed, safe",
							u.Synthesis.AgentsFailed, u.Synthesis.AgentsPartial, u.Synthesis.Verdict, statusOf(u.Synthesis, "fd-b"))
					}
					if err := <-h.done; err != nil {
						t.Errorf("Run = %v", err)
					}
					h.done <- nil
				})
			})
		}
	})
	t.Run("settle", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			dir := t.TempDir()
			h := startWatch(t, dir, Options{UntilComplete: true, Settle: 2 * time.Second, Rescan: -1})
			h.next()
			time.Sleep(10 * time.Second)
			h.none("with no agent")
			h.write("fd-a.md", report("P0 Bad"))
			time.Sleep(50 * time.Millisecond)
			h.next()
			time.Sleep(2*time.Second - time.Millisecond)
			h.none("before the settle time")
			time.Sleep(time.Millisecond)
			if u := h.next(); !u.Final || u.Synthesis.Verdict != parse.Risky {
				t.Fatalf("after the settle time: final %v verdict %s", u.Final, u.Synthesis.Verdict)
			}
			<-h.done
			h.done <- nil
		})
	})
}

func TestWatchFinal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := startWatch(t, dir, Options{Synth: synth.Options{Expect: []string{"fd-a"}}})
		h.next()
		// Written without an event: the final read still sees it.
		write(t, dir, "fd-b.md.partial", "### Findings Index\n", 0)
		h.cancel()
		u := h.next()
		if !u.Final || u.Synthesis.Verdict != parse.Error || !slices.Equal(u.Synthesis.AgentsFailed, []string{"fd-a"}) ||
			!slices.Equal(u.Synthesis.AgentsPartial, []string{"fd-b"}) {
			t.Errorf("final update: final %v, verdict %s, failed %v, partial %v", u.Final, u.Synthesis.Verdict,
				u.Synthesis.AgentsFailed, u.Synthesis.AgentsPartial)
		}
		checkMatchesScan(t, dir, u, "fd-a")
	})
}

// A signal during the first read of a large run (the first Scan still
// parsing, the final one cut short too) hands over no final update: a
// synthesis of nothing would replace good reports with an empty one.
func TestWatchStoppedBeforeFirstRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "fd-a.md", "### Findings Index\n- P1 | AR-001 | \"S\" | T\nVerdict: needs-changes\n", 0)
	w := New(dir, Options{})
	parsing := make(chan struct{}, 1)
	w.scanner.readReport = func(ctx context.Context, _ string) (*parse.Report, error) {
		select {
		case parsing <- struct{}{}:
		default:
		}
		<-ctx.Done() // a report too large to parse before the signal
		return nil, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var updates []*Update
	go func() {
		done <- w.Run(ctx, func(u *Update) error { updates = append(updates, u); return nil })
	}()
	<-parsing
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRead) || len(updates) != 0 {
			t.Errorf("Run = %v after %d updates, want ErrNotRead and none", err, len(updates))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run still running 5 s after the signal")
	}
}

// After a signal, a watcher that handed bus entries over and must merge
// again for its final update (a report came since the last update) reads
// the bus again only within what is left of the second: cut short (here:
// to a nanosecond), it hands over no final update and says why, so that
// the reports of the last change stay whole; in time, the final update
// comes as before. When the run is the one merged last, the final update
// is made from the Live, which read the entries handed over: it comes at
// once, however little time is left.
func TestWatchFinalRereadCutBySignal(t *testing.T) {
	for _, tc := range []struct {
		budget  time.Duration
		changed bool // a report came after the last update
	}{{time.Nanosecond, true}, {5 * time.Second, true}, {time.Nanosecond, false}} {
		dir := t.TempDir()
		write(t, dir, "fd-a.md", report("P1 Tokens in localStorage"), 0)
		var bus strings.Builder
		for i := range 50 {
			bus.WriteString(busLine("fd-b", "notable", fmt.Sprintf("Note %d", i)))
		}
		write(t, dir, "findings.jsonl", bus.String(), 0)
		// Debounce -1: reports are read at the final rescan only, which
		// is given a minute (the test is of the reading after it).
		w := New(dir, Options{handOver: 7, finalBudget: tc.budget, Debounce: -1, finalScan: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		updates := make(chan *Update, 10)
		done := make(chan error, 1)
		go func() { done <- w.Run(ctx, func(u *Update) error { updates <- u; return nil }) }()
		<-updates
		if !w.droppedAny() {
			t.Fatal("no entries handed over: the case tests nothing")
		}
		if tc.changed {
			write(t, dir, "fd-c.md", report("P2 Cache without a bound"), 0)
		}
		cancel()
		err := <-done
		var final *Update
		for len(updates) > 0 {
			if u := <-updates; u.Final {
				final = u
			}
		}
		switch {
		case tc.changed && tc.budget == time.Nanosecond && (!errors.Is(err, ErrBusNotReread) || final != nil):
			t.Errorf("no time left: Run = %v, final update %v; want ErrBusNotReread and none", err, final != nil)
		case (!tc.changed || tc.budget > time.Nanosecond) && (err != nil || final == nil):
			t.Errorf("changed %v, budget %v: Run = %v, final update %v; want the final update", tc.changed, tc.budget, err, final != nil)
		case final != nil && (final.Synthesis.Timeline == nil || final.Synthesis.Timeline.Total != 50 ||
			len(final.Synthesis.AgentsCompleted) != map[bool]int{false: 1, true: 2}[tc.changed]):
			t.Errorf("changed %v: the final synthesis has %v completed, timeline %+v; want every bus entry",
				tc.changed, final.Synthesis.AgentsCompleted, final.Synthesis.Timeline)
		}
	}
}

func TestWatchRescanAndOverflow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := startWatch(t, dir, Options{Rescan: 30 * time.Second})
		h.next()
		write(t, dir, "fd-a.md", report("P1 Missed event"), 0) // no event
		time.Sleep(30*time.Second - time.Millisecond)
		h.none("before the rescan")
		time.Sleep(time.Millisecond)
		if u := h.next(); statusOf(u.Synthesis, "fd-a") != parse.StatusValid {
			t.Errorf("the rescan missed fd-a")
		}
		time.Sleep(30 * time.Second)
		h.none("a rescan that finds nothing new")

		write(t, dir, "fd-b.md", report("P0 Lost in an overflow"), 0)
		h.src.errs <- fsnotify.ErrEventOverflow
		u := h.next()
		if statusOf(u.Synthesis, "fd-b") != parse.StatusValid || len(u.Diagnostics) != 1 {
			t.Errorf("after an overflow: fd-b %q, diagnostics %v", statusOf(u.Synthesis, "fd-b"), u.Diagnostics)
		}
	})
}

func TestWatchKeepGood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "fd-a.md", report("P1 Tokens"), 0)
		h := startWatch(t, dir, Options{Rescan: -1})
		h.next()
		h.write("fd-a.md", "") // truncated before a rewrite
		time.Sleep(50 * time.Millisecond)
		u := h.next()
		if statusOf(u.Synthesis, "fd-a") != parse.StatusValid {
			t.Errorf("emptied report: %q, want its last good parse", statusOf(u.Synthesis, "fd-a"))
		}
		// It stays empty: after KeepGood its failure shows, with no event.
		time.Sleep(DefaultKeepGood - time.Millisecond)
		h.none("before KeepGood")
		time.Sleep(time.Millisecond)
		u = h.next()
		if statusOf(u.Synthesis, "fd-a") != parse.StatusError {
			t.Errorf("after KeepGood: %q, want error", statusOf(u.Synthesis, "fd-a"))
		}
		checkMatchesScan(t, dir, u)
	})
}

func TestWatchSubdirectories(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := startWatch(t, dir, Options{})
		h.next()
		os.Mkdir(filepath.Join(dir, "findings"), 0o755)
		h.src.events <- fsnotify.Event{Name: filepath.Join(dir, "findings"), Op: fsnotify.Create}
		time.Sleep(50 * time.Millisecond)
		synctest.Wait()
		if !slices.Contains(h.src.added, filepath.Join(dir, "findings")) {
			t.Errorf("watched %v, want findings/ too", h.src.added)
		}
		h.write("findings/frontend.yaml", "specialist_name: frontend\nnotes: hi\n")
		time.Sleep(50 * time.Millisecond)
		var u *Update
		for len(h.updates) > 0 || u == nil {
			u = h.next()
		}
		if len(u.Synthesis.Specialists) != 1 {
			t.Errorf("specialists %+v", u.Synthesis.Specialists)
		}
	})
}

// TestClassifyOwnWrites records the events that fluxwatch's own writes make
// (reports renamed into place from temporary files, lock files) with real
// fsnotify, and checks that none of them asks for a read.
func TestClassifyOwnWrites(t *testing.T) {
	dir := t.TempDir()
	fw := fsnotifytest.Watch(t, dir)
	for _, name := range []string{"findings.json", "summary.md", "review.sarif"} {
		if _, err := fsio.WriteFile(context.Background(), filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := fsio.WriteFile(context.Background(), filepath.Join(dir, name), []byte("y"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "peer-findings.jsonl.lock"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "end"), nil, 0o644) // the last event
	w := New(dir, Options{})
	n := 0
	for ev := range fw.Events {
		if filepath.Base(ev.Name) == "end" {
			break
		}
		n++
		if act, _ := w.classify(ev); act != actIgnore {
			t.Errorf("%v asks for action %d", ev, act)
		}
	}
	if n < 6 {
		t.Errorf("only %d events recorded", n)
	}
	for ev, want := range map[fsnotify.Event]action{
		{Name: filepath.Join(dir, "fd-a.md"), Op: fsnotify.Create}:                 actFile,
		{Name: filepath.Join(dir, "fd-a.md.partial"), Op: fsnotify.Write}:          actFile,
		{Name: filepath.Join(dir, "fd-a.abort"), Op: fsnotify.Create}:              actFile,
		{Name: filepath.Join(dir, "findings", "x.yaml"), Op: fsnotify.Write}:       actFile,
		{Name: filepath.Join(dir, "design", "manifest.yaml"), Op: fsnotify.Write}:  actFile,
		{Name: filepath.Join(dir, "peer-findings.jsonl"), Op: fsnotify.Write}:      actBus,
		{Name: filepath.Join(dir, "findings"), Op: fsnotify.Create}:                actSubdir,
		{Name: filepath.Join(dir, "findings", "x.yaml.lock"), Op: fsnotify.Create}: actIgnore,
		{Name: filepath.Join(dir, "synthesis.md"), Op: fsnotify.Write}:             actIgnore,
	} {
		if got, _ := w.classify(ev); got != want {
			t.Errorf("classify(%v) = %d, want %d", ev, got, want)
		}
	}
}

func TestWatchMissingDirectory(t *testing.T) {
	err := New(filepath.Join(t.TempDir(), "missing"), Options{}).Run(context.Background(), func(*Update) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Run on a missing directory = %v, want an error naming it", err)
	}
}

func TestWatchHandlerError(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	w := New(dir, Options{})
	if err := w.Run(context.Background(), func(*Update) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Run = %v, want the handler's error", err)
	}
	calls := 0
	err := New(dir, Options{}).Run(context.Background(), func(u *Update) error {
		calls++
		if u.Final {
			return nil
		}
		return ErrStop
	})
	if err != nil || calls != 2 {
		t.Errorf("ErrStop: Run = %v after %d calls, want nil after 2 (the final update)", err, calls)
	}
}

func hasDiag(ds []synth.Diagnostic, text string) bool {
	for _, d := range ds {
		if strings.Contains(d.String(), text) {
			return true
		}
	}
	return false
}

func deref2(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// held is the number of bus entries the watcher holds, and the number it
// dropped (handed over to its synth.Live). Read only while the watcher waits.
func (h *harness) held() (held, dropped int) {
	for _, b := range h.w.bus {
		held += len(b.entries)
		dropped += b.dropped
	}
	return held, dropped
}

// TestWatchDropsBusEntries: the watcher holds only the bus entries its
// synthesis has not read (a long first read hands them over in batches), and
// its syntheses stay those of a one-shot scan: after appends, after an agent
// completes (the timeline is made again against new findings), once a second
// bus file holds entries (the first is read again, its entries not reported
// as appended again), and in the final update (the bus read again).
func TestWatchDropsBusEntries(t *testing.T) {
	const handOver = 7
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "fd-a.md", report("P1 Tokens in localStorage", "P2 Missing rate limit"), 0)
		var bus strings.Builder
		for i := range 50 {
			switch i % 5 {
			case 0:
				bus.WriteString(busLine(fmt.Sprintf("fd-%c", 'b'+i%3), "blocking", "Tokens in localStorage"))
			case 1:
				bus.WriteString(busLine("fd-b", "blocking", fmt.Sprintf("Race %d", i)))
			default:
				bus.WriteString(busLine("fd-c", "notable", fmt.Sprintf("Note %d", i)))
			}
		}
		write(t, dir, "findings.jsonl", bus.String(), 0)
		h := startWatch(t, dir, Options{handOver: handOver})
		u := h.next()
		checkMatchesScan(t, dir, u)
		if held, dropped := h.held(); held >= handOver || held+dropped != 50 || dropped == 0 {
			t.Errorf("after the first read: %d entries held, %d dropped; want fewer than %d held of 50", held, dropped, handOver)
		}

		h.appendBus("findings.jsonl", busLine("fd-d", "blocking", "Missing rate limit"))
		u = h.next()
		checkMatchesScan(t, dir, u)
		if len(u.Appended) != 1 || u.Appended[0].Seq != 51 {
			t.Errorf("after an append: %+v", u.Appended)
		}

		// An agent completes: the findings merge again, the bus side stays.
		h.write("fd-b.md", report("P0 Race 1", "P3 Tokens in localStorage")+"\nPer fd-c's finding.\n")
		time.Sleep(DefaultDebounce)
		u = h.next()
		checkMatchesScan(t, dir, u)
		if held, dropped := h.held(); held >= handOver || held+dropped != 51 {
			t.Errorf("after a report: %d entries held, %d dropped; want fewer than %d held of 51", held, dropped, handOver)
		}

		// A second bus file, then an append to the first: the first is read
		// again from the start, and only the new entry is appended.
		h.appendBus("peer-findings.jsonl", busLine("fd-e", "blocking", "Race 1"))
		checkMatchesScan(t, dir, h.next())
		h.appendBus("findings.jsonl", busLine("fd-f", "notable", "Late note"))
		u = h.next()
		checkMatchesScan(t, dir, u)
		if len(u.Appended) != 1 || u.Appended[0].Agent != "fd-f" || u.Appended[0].Seq != 52 {
			t.Errorf("after an append to the first of two bus files: %+v", u.Appended)
		}
		if held, dropped := h.held(); held != 53 || dropped != 0 {
			t.Errorf("with two bus files: %d entries held, %d dropped; want 53 and 0", held, dropped)
		}

		// One bus file again: entries are dropped again, and the final
		// update reads the bus once more.
		os.Remove(filepath.Join(dir, "peer-findings.jsonl"))
		h.src.events <- fsnotify.Event{Name: filepath.Join(dir, "peer-findings.jsonl"), Op: fsnotify.Remove}
		time.Sleep(DefaultDebounce)
		checkMatchesScan(t, dir, h.next())
		h.appendBus("findings.jsonl", busLine("fd-g", "blocking", "Tokens in localStorage"))
		checkMatchesScan(t, dir, h.next())
		if _, dropped := h.held(); dropped == 0 {
			t.Errorf("one bus file again: no entry dropped")
		}
		h.cancel()
		u = h.next()
		if !u.Final {
			t.Fatalf("no final update")
		}
		checkMatchesScan(t, dir, u)
	})
}

// A run directory, or its findings/, removed or renamed and made again at
// the same path is watched again at once (the events of its entry in the
// parent, or of the directory itself, say so), and a directory that
// replaced the one watched gets an info diagnostic.
func TestWatchDirectoryReplaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		write(t, dir, "fd-a.md", report("P1 Old run"), 0)
		write(t, dir, "findings/x", "", 0)
		h := startWatch(t, dir, Options{Rescan: -1})
		h.next()
		count := func(paths []string, path string) int {
			n := 0
			for _, p := range paths {
				if p == path {
					n++
				}
			}
			return n
		}
		// remake makes the directory path again, just renamed or removed
		// (op), and sends the events of both.
		remake := func(path string, op fsnotify.Op) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			h.src.events <- fsnotify.Event{Name: path, Op: op}
			h.src.events <- fsnotify.Event{Name: path, Op: fsnotify.Create}
			time.Sleep(DefaultDebounce)
		}

		if err := os.Rename(dir, dir+".old"); err != nil {
			t.Fatal(err)
		}
		remake(dir, fsnotify.Rename)
		var diags []parse.Diagnostic
		u := h.next()
		for {
			diags = append(diags, u.Diagnostics...)
			if len(h.updates) == 0 {
				break
			}
			u = h.next()
		}
		if got := count(h.src.added, dir); got != 2 || count(h.src.removed, dir) != 1 {
			t.Errorf("watched %v, removed %v: want %s watched again", h.src.added, h.src.removed, dir)
		}
		if !hasPathDiag(diags, "", "output directory removed or replaced") {
			t.Errorf("diagnostics %v: want the replaced directory said", diags)
		}
		if statusOf(u.Synthesis, "fd-a") != "" {
			t.Errorf("the renamed run's fd-a is still in the synthesis")
		}

		findings := filepath.Join(dir, "findings")
		for range 2 { // made, then removed and made again (its inode may be reused)
			os.RemoveAll(findings)
			remake(findings, fsnotify.Remove)
			synctest.Wait()
			for len(h.updates) > 0 {
				<-h.updates
			}
		}
		if got := count(h.src.added, findings); got != 3 { // the old run's, the new one's, and again
			t.Errorf("watched %v: want findings/ watched again after it was made again", h.src.added)
		}
	})
}

// With real filesystem events and no rescan: after `rm -rf DIR; mkdir DIR`
// a report written into the new directory is seen at once.
func TestWatchDirectoryRecreatedEvents(t *testing.T) {
	fsnotifytest.Watch(t, t.TempDir()) // skips where the system gives no watcher
	dir := filepath.Join(t.TempDir(), "run")
	write(t, dir, "fd-a.md", report("P1 Old run"), 0)
	ctx, cancel := context.WithCancel(context.Background())
	updates := make(chan *Update, 100)
	done := make(chan error, 1)
	go func() {
		done <- New(dir, Options{Rescan: -1, Debounce: time.Millisecond}).Run(ctx, func(u *Update) error {
			updates <- u
			return nil
		})
	}()
	defer func() {
		cancel()
		<-done
	}()
	waitFor := func(what string, ok func(*Update) bool) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case u := <-updates:
				if ok(u) {
					return
				}
			case <-timeout:
				t.Fatalf("no update within 10 s: %s", what)
			}
		}
	}
	waitFor("the first", func(u *Update) bool { return statusOf(u.Synthesis, "fd-a") == parse.StatusValid })
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	waitFor("fd-a gone", func(u *Update) bool { return statusOf(u.Synthesis, "fd-a") == "" })
	if err := os.WriteFile(filepath.Join(dir, "fd-z1.md"), []byte(report("P1 New run")), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("fd-z1 written into the new directory", func(u *Update) bool { return statusOf(u.Synthesis, "fd-z1") == parse.StatusValid })
}

// TestWatchGrowingLineOneDiagnostic: a bus line written a byte at a time
// (an agent streaming a record) is one diagnostic event while it grows, not
// one per poll: before, each byte changed the held count in the message,
// and a line growing for three seconds gave hundreds of events.
func TestWatchGrowingLineOneDiagnostic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "findings.jsonl", busLine("fd-a", "notable", "first"), 0)
		h := startWatch(t, dir, Options{})
		d := NewDiffer()
		d.Diff(h.next())
		line := busLine("fd-b", "notable", strings.Repeat("grows ", 20))
		var diags []Event
		for i := range len(line) - 1 {
			h.appendBus("findings.jsonl", line[i:i+1])
			for _, ev := range d.Diff(h.next()) {
				if ev.Type == EventDiagnostic {
					diags = append(diags, ev)
				}
			}
		}
		if len(diags) != 1 || diags[0].Line != 2 || !strings.Contains(diags[0].Message, "incomplete record") {
			t.Errorf("a line grown over %d polls gave %d diagnostic events, want one about line 2: %+v", len(line)-1, len(diags), diags)
		}
		h.appendBus("findings.jsonl", line[len(line)-1:])
		if u := h.next(); len(u.Appended) != 1 || hasDiag(u.Synthesis.Diagnostics, "incomplete record") {
			t.Errorf("the line, ended: %d appended, diagnostics %v", len(u.Appended), u.Synthesis.Diagnostics)
		}
	})
}

// refusingSource is a fakeSource out of inotify watches: Add fails as
// inotify_add_watch does then (ENOSPC), until spare is set.
type refusingSource struct {
	*fakeSource
	spare atomic.Bool
	mu    sync.Mutex // guards fakeSource.added
}

func (r *refusingSource) Add(dir string) error {
	if !r.spare.Load() {
		return fmt.Errorf("%s: %w", dir, syscall.ENOSPC)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fakeSource.Add(dir)
}

// watched reports whether dir was added.
func (r *refusingSource) watched(dir string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.added, dir)
}

// Out of inotify watches (a stranger can use up the user's), the
// directories are polled: a new report is seen within DefaultPoll with
// --rescan 0, and no event ever comes. Fault injection through the
// watcher's event source (TestWatchInotifyExhausted of cmd/fluxwatch
// exhausts real watches). Before, the directory was "read every rescan":
// with --rescan 0, never.
func TestWatchOutOfWatchesPolls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := &harness{t: t, dir: dir, src: &fakeSource{events: make(chan fsnotify.Event), errs: make(chan error)},
			updates: make(chan *Update, 100), done: make(chan error, 1)}
		refusing := &refusingSource{fakeSource: h.src}
		w := New(dir, Options{Rescan: -1})
		w.newSource = func() (source, error) { return refusing, nil }
		ctx, cancel := context.WithCancel(context.Background())
		defer func() { cancel(); <-h.done }()
		go func() {
			h.done <- w.Run(ctx, func(u *Update) error { h.updates <- u; return nil })
		}()
		u := h.next()
		if !strings.Contains(fmt.Sprint(u.Diagnostics), "reading it every 500ms instead") {
			t.Errorf("no warning that the directory is polled: %v", u.Diagnostics)
		}
		write(t, dir, "fd-a.md", report("P1 Late"), 0) // and no event
		time.Sleep(DefaultPoll)
		if u := h.next(); statusOf(u.Synthesis, "fd-a") != parse.StatusVariant && statusOf(u.Synthesis, "fd-a") != parse.StatusValid {
			t.Fatalf("a new report, out of watches: %q, want it read", statusOf(u.Synthesis, "fd-a"))
		}
		// Watches to spare again: the directory is watched, the polling ends.
		refusing.spare.Store(true)
		time.Sleep(DefaultPoll)
		synctest.Wait()
		if !refusing.watched(dir) {
			t.Errorf("not watched once watches were spare")
		}
		time.Sleep(10 * DefaultPoll)
		h.none("once watched, no polling")
	})
}
