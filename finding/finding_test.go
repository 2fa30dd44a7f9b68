package finding

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
)

func entry(sev, summary string) bus.Entry {
	return bus.Entry{Severity: sev, Agent: "fd-a", Category: "auth", Summary: summary}
}

var fixedNow = func() time.Time { return time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) }

// TestWriteThenRead: what Write appends to a run directory's bus, Read
// prints as a JSON array, filtered and with offsets when asked.
func TestWriteThenRead(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var offsets []int64
	for _, e := range []bus.Entry{entry(bus.Blocking, "first"), entry(bus.Notable, "second")} {
		w, err := Write(ctx, Target{Dir: dir}, WriteOptions{Entry: e, Now: fixedNow, MaxLine: bus.DefaultMaxLine, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if w.Bus != filepath.Join(dir, "findings.jsonl") {
			t.Errorf("written to %s, want the run's findings.jsonl", w.Bus)
		}
		offsets = append(offsets, w.Offset)
	}
	var out bytes.Buffer
	if err := Read(ctx, Target{Dir: dir}, ReadOptions{Filter: bus.Filter{Severity: bus.All}, MaxLine: bus.DefaultMaxLine, Offsets: true}, &out); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Severity, Summary, Timestamp string
		Offset                       int64
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, &out)
	}
	if len(got) != 2 || got[0].Summary != "first" || got[1].Offset != offsets[1] || got[0].Timestamp != "2026-11-20T10:00:00Z" {
		t.Errorf("read %+v; want first and second at %v", got, offsets)
	}
	out.Reset()
	if err := Read(ctx, Target{Path: filepath.Join(dir, "findings.jsonl")}, ReadOptions{Filter: bus.Filter{Severity: bus.Notable}, MaxLine: bus.DefaultMaxLine}, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), `"severity":"notable"`) != 1 || strings.Contains(out.String(), "first") {
		t.Errorf("notable only: %s", &out)
	}
	out.Reset()
	if err := Read(ctx, Target{Dir: t.TempDir()}, ReadOptions{Filter: bus.Filter{Severity: bus.All}, MaxLine: bus.DefaultMaxLine}, &out); err != nil || out.String() != "[]\n" {
		t.Errorf("a run without a bus: %q, %v; want []", &out, err)
	}
}

// TestInputErrors: what the caller got wrong is an *InputError, and
// nothing is written.
func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, c := range []struct {
		name string
		err  error
	}{
		{"no summary", func() error {
			_, err := Write(ctx, Target{Dir: dir}, WriteOptions{Entry: entry(bus.Blocking, " "), MaxLine: bus.DefaultMaxLine})
			return err
		}()},
		{"bad severity", func() error {
			_, err := Write(ctx, Target{Dir: dir}, WriteOptions{Entry: entry("urgent", "x"), MaxLine: bus.DefaultMaxLine})
			return err
		}()},
		{"not a directory", func() error {
			_, err := Write(ctx, Target{Dir: filepath.Join(dir, "none")}, WriteOptions{Entry: entry(bus.Blocking, "x"), MaxLine: bus.DefaultMaxLine})
			return err
		}()},
		{"read severity", Read(ctx, Target{Dir: dir}, ReadOptions{Filter: bus.Filter{Severity: "urgent"}}, &bytes.Buffer{})},
		{"read since", Read(ctx, Target{Dir: dir}, ReadOptions{Filter: bus.Filter{Severity: bus.All}, Since: -1}, &bytes.Buffer{})},
		{"bus unreachable", func() error {
			_, err := Write(ctx, Target{Open: func(context.Context) (bus.Backend, error) { return nil, bus.ErrUnavailable }},
				WriteOptions{Entry: entry(bus.Blocking, "x"), MaxLine: bus.DefaultMaxLine})
			return err
		}()},
	} {
		var in *InputError
		if !errors.As(c.err, &in) {
			t.Errorf("%s: %v, want an *InputError", c.name, c.err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("written: %v", ents)
	}
}

// TestReadSkipsBusNameNotRegular: a bus name that is not a regular file is
// skipped and named (watcher.BusPaths), the other read; alone, it is the
// error.
func TestReadSkipsBusNameNotRegular(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "findings.jsonl"), 0o755)
	if _, err := bus.Append(filepath.Join(dir, "peer-findings.jsonl"), entry(bus.Blocking, "good"), bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	var skipped []error
	var out bytes.Buffer
	o := ReadOptions{Filter: bus.Filter{Severity: bus.All}, MaxLine: bus.DefaultMaxLine, Skipped: func(err error) { skipped = append(skipped, err) }}
	if err := Read(context.Background(), Target{Dir: dir}, o, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "good") || len(skipped) != 1 || !strings.Contains(skipped[0].Error(), "findings.jsonl") {
		t.Errorf("read %q, skipped %v", &out, skipped)
	}
	os.Remove(filepath.Join(dir, "peer-findings.jsonl"))
	var in *InputError
	if err := Read(context.Background(), Target{Dir: dir}, o, &out); !errors.As(err, &in) {
		t.Errorf("the one bus name a directory: %v, want an *InputError", err)
	}
}

// TestFollow prints each entry on its own line as it is appended, and
// ends with ctx.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := newPipe()
	done := make(chan error, 1)
	go func() {
		done <- Read(ctx, Target{Dir: dir}, ReadOptions{Filter: bus.Filter{Severity: bus.All}, Follow: true, Interval: 10 * time.Millisecond, MaxLine: bus.DefaultMaxLine}, pw)
	}()
	if _, err := Write(context.Background(), Target{Dir: dir}, WriteOptions{Entry: entry(bus.Notable, "later"), Now: fixedNow, MaxLine: bus.DefaultMaxLine, NoSync: true}); err != nil {
		t.Fatal(err)
	}
	select {
	case line := <-pr:
		if !strings.Contains(line, `"summary":"later"`) || strings.HasPrefix(line, "[") {
			t.Errorf("followed line %q", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the appended entry was not printed")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("follow ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("follow did not end with its context")
	}
}

// pipe is a writer that sends each write on a channel.
type pipe chan string

func newPipe() (<-chan string, pipe) {
	p := make(pipe, 16)
	return p, p
}

func (p pipe) Write(b []byte) (int, error) {
	p <- string(b)
	return len(b), nil
}
