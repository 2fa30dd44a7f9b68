package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
	"github.com/fluxwatch/fluxwatch/internal/busflag"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
)

// startHub starts an embedded NATS server for the test.
func startHub(t *testing.T) *hub.Hub {
	return hubtest.Start(t, hub.Config{NoSync: true})
}

// natsEnv is an env whose FLUXWATCH_BUS (and nothing else) is set.
func natsEnv(busURL string) (*env, *syncBuffer, *syncBuffer) {
	var out, errb syncBuffer
	e := bareEnv(&out, &errb)
	e.getenv = func(k string) string {
		switch k {
		case "FLUXWATCH_BUS":
			return busURL
		case "SOURCE_DATE_EPOCH":
			return "1795000000"
		}
		return ""
	}
	return e, &out, &errb
}

var natsFindings = []struct{ agent, sev, summary string }{
	{"fd-architecture", "blocking", "The auth middleware is never mounted: every endpoint is public."},
	{"fd-safety", "notable", "Tokens are logged at debug level."},
	{"fd-correctness", "blocking", "The retry loop re-sends a charge without an idempotency key."},
}

// TestFindingNATS: finding write and read on FLUXWATCH_BUS=nats://…/RUN;
// relay copies the stream into a file bus and a file's own records into
// the stream, each once however often it runs; and synth over the stream
// (--bus, FLUXWATCH_BUS) or relayed writes byte-for-byte what it writes over
// the same records written to the file directly.
func TestFindingNATS(t *testing.T) {
	h := startHub(t)
	url := h.URL() + "/cmdtest"
	ctx := context.Background()

	direct := t.TempDir()
	for _, f := range natsFindings {
		for _, target := range []string{"", filepath.Join(direct, "peer-findings.jsonl")} {
			e, _, errb := natsEnv(url)
			args := []string{"finding", "write", "--agent", f.agent, "--severity", f.sev, "--category", "c",
				"--summary", f.summary, "--timestamp", "2026-11-25T04:00:00Z"}
			if target != "" {
				args = append(args, "--bus", target)
			}
			if err := run(ctx, args, e); err != nil {
				t.Fatalf("%v: %v %s", args, err, errb.String())
			}
		}
	}
	e, out, _ := natsEnv(url)
	if err := run(ctx, []string{"finding", "read", "--severity", "blocking", "--offsets"}, e); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Agent  string `json:"agent"`
		Offset int64  `json:"offset"`
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("read: %v\n%s", err, out.String())
	}
	if len(got) != 2 || got[0].Agent != "fd-architecture" || got[0].Offset != 1 || got[1].Offset != 3 {
		t.Errorf("read --severity blocking: %+v, want fd-architecture at 1 and fd-correctness at 3", got)
	}

	// synth over the stream (relayed into the run directory in place of
	// the file) and over the file written directly give the same bytes.
	busFile := filepath.Join(direct, "peer-findings.jsonl")
	want, err := os.ReadFile(busFile)
	if err != nil {
		t.Fatal(err)
	}
	synthEnv := func(busURL string, args ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out")
		e, _, errb := natsEnv(busURL)
		if err := run(ctx, append([]string{"synth", "--out", out, direct}, args...), e); err != nil && !isExit(err) {
			t.Fatalf("synth: %v %s", err, errb.String())
		}
		return out
	}
	synth := func(args ...string) string { t.Helper(); return synthEnv("", args...) }
	outFile := synth()
	if err := os.Remove(busFile); err != nil {
		t.Fatal(err)
	}
	relay := func() {
		t.Helper()
		e, _, errb := natsEnv("")
		if err := run(ctx, []string{"bus", "relay", "--once", busFile, url}, e); err != nil {
			t.Fatalf("relay: %v %s", err, errb.String())
		}
	}
	// synth --bus nats://… (and FLUXWATCH_BUS) reads the stream itself.
	sameReports(t, "synth --bus nats://…", outFile, synth("--bus", url))
	sameReports(t, "synth with FLUXWATCH_BUS", outFile, synthEnv(url))
	relay()
	relay() // copies nothing: every record is on both sides
	if got, _ := os.ReadFile(busFile); string(got) != string(want) {
		t.Errorf("relayed bus:\n%s\nwant the directly written one:\n%s", got, want)
	}
	sameReports(t, "the relayed stream", outFile, synth())

	// A record only in the file goes to the stream, once.
	if _, err := bus.Append(busFile, bus.Entry{Kind: bus.EntryFinding, Severity: "notable",
		Agent: "fd-shell", Category: "c", Summary: "written by the shell helper", FileRefs: []string{}}, bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	relay()
	relay()
	e, out, _ = natsEnv(url)
	if err := run(ctx, []string{"finding", "read", "--agent", "fd-shell"}, e); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "written by the shell helper"); n != 1 {
		t.Errorf("the shell record is %d times in the stream, want once:\n%s", n, out.String())
	}
	entries, _, _ := bus.ReadFile(busFile, 0)
	if len(entries) != 4 {
		t.Errorf("file bus after relays: %d records, want 4", len(entries))
	}
}

// sameReports fails unless the directories a and b hold the same
// summary.md and findings.json, byte for byte.
func sameReports(t *testing.T, what, a, b string) {
	t.Helper()
	for _, name := range []string{"summary.md", "findings.json"} {
		x, errA := os.ReadFile(filepath.Join(a, name))
		y, errB := os.ReadFile(filepath.Join(b, name))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %s: %v %v", what, name, errA, errB)
		}
		if string(x) != string(y) {
			t.Errorf("%s: %s differs from the file bus's:\n%s\n---\n%s", what, name, x, y)
		}
	}
}

// isExit reports whether err only carries an exit status (synth's
// "findings found" status), not a failure.
func isExit(err error) bool {
	var x exitError
	return errors.As(err, &x) && x.err == nil
}

// openStream opens the stream at url as the commands do, closed when the
// test ends.
func openStream(t *testing.T, url string) bus.Backend {
	t.Helper()
	e, _, _ := natsEnv("")
	b := busflag.Flags{Path: url}
	stream, err := b.Open(context.Background(), e.getenv, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stream.Close() })
	return stream
}

// TestRelayFollow: a running relay copies a record written to either side
// to the other within seconds, once, and returns when its context ends.
func TestRelayFollow(t *testing.T) {
	h := startHub(t)
	url := h.URL() + "/relay"
	file := filepath.Join(t.TempDir(), "peer-findings.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, _, errb := natsEnv("")
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"bus", "relay", file, url}, e) }()

	stream := openStream(t, url)
	ent := func(agent string) bus.Entry {
		return bus.Entry{Kind: bus.EntryFinding, Severity: "notable", Agent: agent, Category: "c", Summary: "from " + agent, FileRefs: []string{}}
	}
	if _, err := stream.Append(ctx, ent("fd-net")); err != nil {
		t.Fatal(err)
	}
	if _, err := bus.Append(file, ent("fd-shell"), bus.WriteOptions{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	count := func(bk bus.Backend) map[string]int {
		n := map[string]int{}
		bk.Read(context.Background(), 0, bus.Filter{}, func(e bus.Entry) error { n[e.Agent]++; return nil }, nil)
		return n
	}
	fileBus := bus.NewFile(file, bus.Options{})
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		fs, ss := count(fileBus), count(stream)
		if fs["fd-net"] == 1 && fs["fd-shell"] == 1 && ss["fd-net"] == 1 && ss["fd-shell"] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 15 s: file %v, stream %v; want each record once on both (%s)", fs, ss, errb.String())
		}
	}
	time.Sleep(300 * time.Millisecond) // an echo would show by now
	if fs, ss := count(fileBus), count(stream); len(fs) != 2 || fs["fd-net"]+fs["fd-shell"] != 2 || ss["fd-net"]+ss["fd-shell"] != 2 {
		t.Errorf("echoed: file %v, stream %v", fs, ss)
	}
	cancel()
	testfault.Within(t, 5*time.Second, "relay after its context ended", func() {
		if err := <-done; err != nil {
			t.Errorf("relay: %v", err)
		}
	})
}
