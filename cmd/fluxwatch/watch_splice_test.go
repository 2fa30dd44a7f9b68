package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// TestWatchSplicedReports: watch writes findings.json and summary.md at
// each change from the ones it wrote before (synth.JSONSplice,
// synth.MarkdownSplice); after every change of a scripted run — bus appends that touch a finding and that do not, a bus
// writer killed mid-line, a .partial cut short, a report completing by
// rename (one with findings, one without), a report written again with
// the same findings and then cut short by a killed writer, findings.json replaced by someone else or written over in place
// with its size and time kept (summary.md too) — the watcher's
// findings.json and summary.md are synth's of the same files, byte for byte.
func TestWatchSplicedReports(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.MkdirAll(dir, 0o755)
	getenv := func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1795000000"
		}
		return ""
	}
	report := func(lines ...string) string {
		return "### Findings Index\n" + strings.Join(lines, "\n") + "\nVerdict: needs-changes\n<!-- flux-drive:complete -->\n"
	}
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fd-a.md", report(
		`- P1 | A-001 | "Auth" | Session token kept in local storage`,
		`- P2 | A-002 | "API" | Missing rate limit on login`,
		`- P3 | A-003 | "Docs" | Stale README example`))
	write("fd-b.md", report(
		`- P1 | B-001 | "Auth" | Session token stored in local storage`,
		`- P2 | B-002 | "Uploads" | Upload size not bounded`))
	busPath := filepath.Join(dir, parse.BusNames[0])
	appendEntry := func(e bus.Entry) {
		t.Helper()
		if _, err := bus.Append(busPath, e, bus.WriteOptions{NoSync: true}); err != nil {
			t.Fatal(err)
		}
	}
	appendRaw := func(s string) {
		t.Helper()
		f, err := os.OpenFile(busPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	appendEntry(bus.Entry{Severity: bus.Notable, Agent: "fd-a", Category: "api", Summary: "Missing rate limit on login",
		FileRefs: []string{"api/login.go:10"}, Timestamp: "2026-11-20T09:00:00Z"})

	stop := watchInProcess(t, getenv, "-q", "--debounce", "20ms", dir)
	findings := filepath.Join(dir, "findings.json")
	summary := filepath.Join(dir, "summary.md")
	settle := func(what string) {
		t.Helper()
		want := synthOnce(t, getenv, filepath.Join(root, "synth"), dir)
		wantMD, err := os.ReadFile(filepath.Join(root, "synth", "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		awaitFile(t, findings, 30*time.Second, what+": the watcher's findings.json equal to synth's", func(got []byte) bool {
			return bytes.Equal(got, want)
		})
		awaitFile(t, summary, 30*time.Second, what+": the watcher's summary.md equal to synth's", func(got []byte) bool {
			return bytes.Equal(got, wantMD)
		})
	}
	// overwrite writes over the file at path in place, the same size, its
	// modification time kept.
	overwrite := func(path string) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(bytes.Replace(data, []byte(`"title": "`), []byte(`"title": "#`), -1), []byte("- **"), []byte("- *#"), -1)[:len(data)]
		f.WriteAt(data, 0)
		f.Close()
		os.Chtimes(path, info.ModTime(), info.ModTime())
	}
	settle("start")

	appendEntry(bus.Entry{Severity: bus.Notable, Agent: "fd-c", Category: "misc", Summary: "zyxw qvut nothing like any finding",
		Timestamp: "2026-11-20T09:01:00Z"})
	settle("a bus append that touches no finding")

	appendEntry(bus.Entry{Severity: bus.Blocking, Agent: "fd-c", Category: "uploads", Summary: "Upload size not bounded",
		FileRefs: []string{"upload.go:3"}, Timestamp: "2026-11-20T09:02:00Z"})
	settle("a bus append that discovers a finding")

	line := string(bus.Encode(bus.Entry{Severity: bus.Blocking, Agent: "fd-c", Category: "docs", Summary: "Stale README example",
		Timestamp: "2026-11-20T09:03:00Z"}))
	appendRaw(line[:len(line)/2])
	settle("a bus writer killed mid-line")
	appendRaw(line[len(line)/2:])
	settle("the line finished")

	full := report(`- P0 | C-001 | "Secrets" | API key committed to the repository`, `- P2 | C-002 | "API" | No rate limit on login`)
	write("fd-c.md.partial", full[:len(full)*2/3])
	settle("a .partial cut short")
	write("fd-c.md.partial", full)
	if err := os.Rename(filepath.Join(dir, "fd-c.md.partial"), filepath.Join(dir, "fd-c.md")); err != nil {
		t.Fatal(err)
	}
	settle("a report completed by rename")

	// The merge kept (synth/incremental.go): a report without a finding
	// completes; a report is written again with the same findings; then
	// a writer killed mid-report leaves one cut short (other findings).
	write("fd-e.md.partial", "### Findings Index\nNo findings.\nVerdict: safe\n")
	if err := os.Rename(filepath.Join(dir, "fd-e.md.partial"), filepath.Join(dir, "fd-e.md")); err != nil {
		t.Fatal(err)
	}
	settle("a report without a finding completed by rename")
	write("fd-b.md", report(
		`- P1 | B-001 | "Auth" | Session token stored in local storage`,
		`- P2 | B-002 | "Uploads" | Upload size not bounded`)+"\nRead fd-a's peer finding first.\n")
	settle("a report written again with the same findings")
	again := report(`- P1 | B-001 | "Auth" | Session token stored in local storage`, `- P2 | B-002 | "Uploads" | Upload size not bounded`)
	write("fd-b.md", again[:strings.Index(again, "B-002")]) // in the middle of its second finding
	settle("a report cut short by a killed writer")

	// findings.json replaced by another file: the next change renders it.
	data, err := os.ReadFile(findings)
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.Replace(data, []byte(`"title": "`), []byte(`"title": "#`), -1)
	if err := os.WriteFile(findings+".x", other[:len(data)], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(findings+".x", findings); err != nil {
		t.Fatal(err)
	}
	appendEntry(bus.Entry{Severity: bus.Notable, Agent: "fd-d", Category: "misc", Summary: "another unrelated note",
		Timestamp: "2026-11-20T09:04:00Z"})
	settle("findings.json replaced, then a bus append")

	// Written over in place, its size and modification time kept.
	overwrite(findings)
	overwrite(summary)
	appendEntry(bus.Entry{Severity: bus.Notable, Agent: "fd-d", Category: "misc", Summary: "one more unrelated note",
		Timestamp: "2026-11-20T09:05:00Z"})
	settle("findings.json written over in place, then a bus append")

	if err, out := stop(); err != nil {
		t.Fatalf("watch: %v\n%s", err, out)
	}
}
