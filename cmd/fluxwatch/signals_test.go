//go:build unix

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/interrupt"
	"github.com/fluxwatch/fluxwatch/internal/testfault"
	"golang.org/x/sys/unix"
)

var signalsBin = flag.String("signals.bin", "", "run TestSignals against this fluxwatch binary (make signals builds one) instead of the test binary")

// signalBound is the failure bound of TestSignals: SPEC §7 promises 1 s; a
// -race binary on a loaded 2-core machine gets three. The measured times are
// logged.
const signalBound = 3 * time.Second

// fluxwatchBin returns the fluxwatch to run as a process: -signals.bin, or
// the test binary itself (testBinaryAsFluxwatch).
func fluxwatchBin(t *testing.T) string {
	t.Helper()
	if *signalsBin != "" {
		abs, err := filepath.Abs(*signalsBin)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	return testBinaryAsFluxwatch(t)
}

// proc is a fluxwatch process started by a signal case.
type proc struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr syncBuffer
	start          time.Time
	done           chan struct{} // closed when it has exited
}

func startProc(t *testing.T, bin, dir string, env []string, args ...string) *proc {
	t.Helper()
	return startProcOn(t, nil, bin, dir, env, args...)
}

// startProcTTY starts the command with a terminal as its standard output;
// what it draws is read into p.stdout.
func startProcTTY(t *testing.T, bin, dir string, env []string, args ...string) *proc {
	t.Helper()
	ptmx, pts := testfault.OpenPTY(t, 132, 43)
	p := startProcOn(t, pts, bin, dir, append([]string{"TERM=xterm"}, env...), args...)
	pts.Close() // the process holds it now
	go io.Copy(&p.stdout, ptmx)
	return p
}

func startProcOn(t *testing.T, stdout *os.File, bin, dir string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	// A -race binary sleeps 1 s at exit by default: that is not ours to measure.
	p.cmd.Env = append(os.Environ(), append([]string{"GORACE=atexit_sleep_ms=0", "NO_COLOR=1"}, env...)...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if stdout != nil {
		p.cmd.Stdout = stdout
	}
	in, err := p.cmd.StdinPipe() // kept open: mcp and others see no end of input
	if err != nil {
		t.Fatal(err)
	}
	p.stdin = in
	ready := filepath.Join(t.TempDir(), "signals-caught")
	p.cmd.Env = append(p.cmd.Env, signalsReadyEnv+"="+ready)
	p.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		in.Close()
	})
	if *signalsBin == "" { // a real binary has no such hook: it starts in milliseconds
		p.fileExists(t, ready)
	}
	return p
}

// waitFor polls cond every 10 ms until it holds, failing after 30 s or when
// the process exits first.
func (p *proc) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		select {
		case <-p.done:
			t.Fatalf("exited (%v) before %s; stdout:\n%s\nstderr:\n%s", p.cmd.ProcessState, what, p.stdout.String(), p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 30s; stdout:\n%s\nstderr:\n%s", what, p.stdout.String(), p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *proc) stdoutHas(t *testing.T, s string) {
	t.Helper()
	p.waitFor(t, fmt.Sprintf("%q on stdout", s), func() bool { return strings.Contains(p.stdout.String(), s) })
}

func (p *proc) fileExists(t *testing.T, path string) {
	t.Helper()
	p.waitFor(t, path, func() bool { _, err := os.Stat(path); return err == nil })
}

// busy waits 300 ms and returns p: the command is then in the middle of
// what the case gives it (a parse of seconds, a wait that never ends by
// itself). Whether it really was is checked afterwards: a command that
// finished first exits with its own status, not 128+n.
func (p *proc) busy() *proc {
	time.Sleep(300 * time.Millisecond)
	return p
}

// signalRow is one line of the time-to-exit table.
type signalRow struct {
	name   string
	sig    syscall.Signal
	took   time.Duration
	status int
}

// temps returns the temporary files of atomic writes (".NAME.*.tmp") and
// any other *.tmp left under dir.
func temps(dir string) []string {
	var left []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(d.Name(), ".tmp") {
			left = append(left, path)
		}
		return nil
	})
	return left
}

// hugeProse writes at path a 16 MiB report with no Findings Index and
// 160,000 bold [P1] items, for the prose fallback: minutes on main f1b7f46
// (quadratic, issue 14) and still seconds once linear (the bar: 16 MiB in
// < 2 s), so a signal 300 ms after the start finds the command parsing.
func hugeProse(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, hugeProseData(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var hugeProseData = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("# Review\n\n## Findings\n\n")
	for i := range 160000 {
		fmt.Fprintf(&b, "- **[P1] Finding number %d about module%d** the handler in src/m%d.go:%d retries forever\n", i, i, i, i+1)
	}
	return b.Bytes()
})

// holdLock takes the exclusive flock of path from this process (another
// process than the command's) until the test ends, or until the function
// it returns is called.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return func() { f.Close() }
}

const mcpHello = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// TestSignals runs every command as a process in the middle of its longest
// wait or work — parsing a huge report, writing to a FIFO with no reader,
// waiting on a lock held by another process, following the bus, serving MCP
// — sends it SIGTERM (SIGINT for some), and checks that it exits within the
// bound (SPEC §7: 1 s) with status 128+n and no temporary file left. It logs
// a table of the times to exit.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes for about 20 s")
	}
	bin := fluxwatchBin(t)
	term, intr := []syscall.Signal{syscall.SIGTERM}, []syscall.Signal{syscall.SIGINT}
	both := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}
	cases := []struct {
		name string
		sigs []syscall.Signal
		// run starts the command in dir and returns once it is in the
		// state to interrupt.
		run func(t *testing.T, dir string) *proc
	}{
		{"synth huge prose report", both, func(t *testing.T, dir string) *proc {
			hugeProse(t, filepath.Join(dir, "run", "fd-prose.md"))
			return startProc(t, bin, dir, nil, "synth", "-q", "run").busy()
		}},
		{"synth --sarif FIFO, no reader", term, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			testfault.Mkfifo(t, filepath.Join(dir, "out.sarif"))
			return startProc(t, bin, dir, nil, "synth", "-q", "--sarif", "out.sarif", "run").busy()
		}},
		{"check huge prose report", term, func(t *testing.T, dir string) *proc {
			hugeProse(t, filepath.Join(dir, "fd-prose.md"))
			return startProc(t, bin, dir, nil, "check", "fd-prose.md").busy()
		}},
		{"watch", both, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			p := startProc(t, bin, dir, nil, "watch", "run")
			p.stdoutHas(t, "completed fd-a")
			return p
		}},
		{"watch, live view on a terminal", intr, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			p := startProcTTY(t, bin, dir, nil, "watch", "run")
			p.stdoutHas(t, "fd-a")
			if !strings.Contains(p.stdout.String(), "\x1b[?1049h") {
				t.Fatalf("no live view (alternate screen) on the terminal:\n%q", p.stdout.String())
			}
			return p
		}},
		{"watch --events", term, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			p := startProc(t, bin, dir, nil, "watch", "--events", "run")
			p.stdoutHas(t, `"agent_completed"`)
			return p
		}},
		{"watch, a huge report arriving", term, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			p := startProc(t, bin, dir, nil, "watch", "--events", "run")
			p.stdoutHas(t, `"agent_completed"`)
			hugeProse(t, filepath.Join(dir, "run", "fd-prose.md"))
			return p.busy()
		}},
		{"finding read --follow", term, func(t *testing.T, dir string) *proc {
			smallRun(t, filepath.Join(dir, "run"))
			p := startProc(t, bin, dir, nil, "finding", "read", "--follow", "--dir", "run")
			p.stdoutHas(t, `"agent":"fd-b"`)
			return p
		}},
		{"finding read, FIFO bus", term, func(t *testing.T, dir string) *proc {
			testfault.Mkfifo(t, filepath.Join(dir, "peer-findings.jsonl"))
			return startProc(t, bin, dir, nil, "finding", "read", "--bus", "peer-findings.jsonl").busy()
		}},
		{"finding read --follow, FIFO bus", intr, func(t *testing.T, dir string) *proc {
			testfault.Mkfifo(t, filepath.Join(dir, "peer-findings.jsonl"))
			return startProc(t, bin, dir, nil, "finding", "read", "--follow", "--bus", "peer-findings.jsonl").busy()
		}},
		{"finding write, bus locked", term, func(t *testing.T, dir string) *proc {
			holdLock(t, filepath.Join(dir, "peer-findings.jsonl.lock"))
			return startProc(t, bin, dir, nil, "finding", "write", "--bus", "peer-findings.jsonl",
				"--severity", "notable", "--agent", "fd-a", "--category", "c", "--summary", "s").busy()
		}},
		{"plan, specialist locked", term, func(t *testing.T, dir string) *proc {
			holdLock(t, filepath.Join(dir, "plan", "findings", "shared.yaml.lock"))
			return startProc(t, bin, dir, []string{"FLUXWATCH_PLAN_DIR=plan"},
				"plan", "write-approach", "shared", "1", "--description", "d").busy()
		}},
		{"discover --task-file FIFO", term, func(t *testing.T, dir string) *proc {
			testfault.Mkfifo(t, filepath.Join(dir, "task"))
			return startProc(t, bin, dir, nil, "discover", "--task-file", "task", "--root", ".").busy()
		}},
		{"demo --live", term, func(t *testing.T, dir string) *proc {
			p := startProc(t, bin, dir, nil, "demo", "--live", "run")
			p.stdoutHas(t, "live demo in run")
			return p
		}},
		{"mcp, idle", both, func(t *testing.T, dir string) *proc {
			p := startProc(t, bin, dir, nil, "mcp")
			io.WriteString(p.stdin, mcpHello)
			p.stdoutHas(t, `"id":1,"result"`)
			return p
		}},
		{"mcp, get_synthesis of a huge report", term, func(t *testing.T, dir string) *proc {
			hugeProse(t, filepath.Join(dir, "run", "fd-prose.md"))
			p := startProc(t, bin, dir, nil, "mcp")
			io.WriteString(p.stdin, mcpHello)
			p.stdoutHas(t, `"id":1,"result"`)
			io.WriteString(p.stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_synthesis","arguments":{"output_dir":"run"}}}`+"\n")
			return p.busy()
		}},
	}

	// These commands may refuse at once, exit 2, the FIFO input they would
	// wait on (fsio.Open): that passes too.
	mayRefuse := map[string]bool{"finding read, FIFO bus": true, "finding read --follow, FIFO bus": true, "discover --task-file FIFO": true}

	var rows []signalRow
	for _, c := range cases {
		for _, sig := range c.sigs {
			name := fmt.Sprintf("%s/%s", c.name, unix.SignalName(sig))
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				p := c.run(t, dir)
				select {
				case <-p.done:
					if mayRefuse[c.name] && p.cmd.ProcessState.ExitCode() == exitUsage {
						rows = append(rows, signalRow{name, sig, -2, exitUsage})
						t.Logf("refused at once, before the signal: %s", strings.TrimSpace(p.stderr.String()))
						return
					}
					t.Fatalf("exited (%v) before the signal: nothing was interrupted; stdout:\n%s\nstderr:\n%s",
						p.cmd.ProcessState, p.stdout.String(), p.stderr.String())
				default:
				}
				sent := time.Now()
				if err := p.cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				select {
				case <-p.done:
				case <-time.After(signalBound):
					rows = append(rows, signalRow{name, sig, -1, -1})
					t.Fatalf("still running %v after %s; stderr:\n%s", signalBound, unix.SignalName(sig), p.stderr.String())
				}
				took := time.Since(sent)
				status := p.cmd.ProcessState.ExitCode()
				rows = append(rows, signalRow{name, sig, took, status})
				t.Logf("exit %d %v after %s", status, took.Round(time.Millisecond), unix.SignalName(sig))
				if want := 128 + int(sig); status != want {
					t.Errorf("exit status %d (%v), want %d; stderr:\n%s", status, p.cmd.ProcessState, want, p.stderr.String())
				}
				if left := temps(dir); len(left) > 0 {
					t.Errorf("temporary files left behind: %v", left)
				}
				if strings.Contains(p.stderr.String(), "context canceled") {
					t.Errorf("stderr reports the cancellation as an error:\n%s", p.stderr.String())
				}
			})
		}
	}

	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "command\tsignal\ttime to exit\tstatus\t")
	for _, r := range rows {
		took, status := r.took.Round(time.Millisecond).String(), fmt.Sprint(r.status)
		switch r.took {
		case -1:
			took, status = "> "+signalBound.String(), "still running"
		case -2:
			took = "refused before the signal"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", r.name[:strings.LastIndex(r.name, "/")], unix.SignalName(r.sig), took, status)
	}
	tw.Flush()
	t.Logf("time from the signal to exit (bound %v; SPEC §7: 1 s):\n%s", signalBound, b.String())
}

// A second signal ends the process at once, without waiting for the grace
// of the first: here synth waits for a reader on its --sarif FIFO.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	bin := fluxwatchBin(t)
	dir := t.TempDir()
	smallRun(t, filepath.Join(dir, "run"))
	testfault.Mkfifo(t, filepath.Join(dir, "out.sarif"))
	p := startProc(t, bin, dir, nil, "synth", "-q", "--sarif", "out.sarif", "run")
	p.busy()
	sent := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	// Far enough apart that the process has taken the first: two signals
	// pending at once are delivered lowest number first (SIGINT before
	// SIGTERM), and on a loaded machine 20 ms was not always enough.
	time.Sleep(150 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGINT)
	testfault.Within(t, signalBound, "after two signals", func() { <-p.done })
	took := time.Since(sent)
	t.Logf("exit %d %v after the first signal", p.cmd.ProcessState.ExitCode(), took.Round(time.Millisecond))
	if took >= interrupt.Grace {
		t.Errorf("exited %v after the first signal: the second did not end it before the grace (%v)", took, interrupt.Grace)
	}
	if got := p.cmd.ProcessState.ExitCode(); got != 143 {
		t.Errorf("exit status %d, want 143 (the first signal's)", got)
	}
	if left := temps(dir); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// The same signal twice at once is one signal: GNU timeout sends SIGTERM to
// the child and then to its process group. watch still writes its final
// reports (the expected agent that never wrote is failed in them); before,
// the echo ended the process at once, without them, about one run in six.
func TestSignalEchoIsOneSignal(t *testing.T) {
	bin := fluxwatchBin(t)
	dir := t.TempDir()
	smallRun(t, filepath.Join(dir, "run"))
	p := startProc(t, bin, dir, nil, "watch", "-q", "--no-evidence", "--expect", "fd-a,ghost", "--out", "out", "run")
	p.fileExists(t, filepath.Join(dir, "out", "findings.json"))
	p.cmd.Process.Signal(syscall.SIGTERM)
	// Not at once: two signals sent before the first is handled are one
	// pending signal to the kernel. timeout's two kills are sometimes
	// apart, sometimes not; here they always are, by less than interrupt.Echo.
	time.Sleep(2 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGTERM)
	testfault.Within(t, signalBound, "after the signal", func() { <-p.done })
	if got := p.cmd.ProcessState.ExitCode(); got != 143 {
		t.Errorf("exit status %d, want 143", got)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "findings.json"))
	if err != nil || !regexp.MustCompile(`"agents_failed": \[\s*"ghost"`).Match(data) {
		t.Errorf("no final reports (ghost failed) after the echoed signal: %v\n%.600s", err, data)
	}
}

// signalWhileLocked runs fluxwatch with args in dir while another process
// holds the lock file lock, interrupts it (SIGINT) once it is busy, then
// releases the lock: it must exit within signalBound with status 130.
func signalWhileLocked(t *testing.T, lock, dir string, env []string, args ...string) *proc {
	t.Helper()
	release := holdLock(t, lock)
	p := startProc(t, fluxwatchBin(t), dir, env, args...).busy()
	p.cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(100 * time.Millisecond)
	release()
	testfault.Within(t, signalBound, "after the signal", func() { <-p.done })
	if got := p.cmd.ProcessState.ExitCode(); got != 130 {
		t.Errorf("exit status %d, want 130", got)
	}
	return p
}

// finding write interrupted while another writer holds the lock, which is
// then released within the grace: it writes nothing, since it exits with
// the signal's status and its caller, seeing a failure, writes the record
// again. Before, it appended, printed its acknowledgement and exited 130.
func TestFindingWriteSignalledWhileLockedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	busPath := filepath.Join(dir, "run", "peer-findings.jsonl")
	p := signalWhileLocked(t, busPath+".lock", dir, nil, "finding", "write", "--bus", busPath, "--json",
		"--severity", "notable", "--agent", "fd-a", "--category", "db", "--summary", "N+1")
	if data, _ := os.ReadFile(busPath); len(data) > 0 || p.stdout.String() != "" {
		t.Errorf("a signalled writer wrote %q and acknowledged %q, want neither", data, p.stdout.String())
	}
}

// finding read refuses a bus that is a FIFO at once, exit 2, naming it:
// it does not wait for a writer (TestSignals checks that SIGTERM ends it
// meanwhile whatever it does).
func TestFindingReadFIFOBusRefused(t *testing.T) {
	bin := fluxwatchBin(t)
	dir := t.TempDir()
	testfault.Mkfifo(t, filepath.Join(dir, "peer-findings.jsonl"))
	for _, args := range [][]string{
		{"finding", "read", "--bus", "peer-findings.jsonl"},
		{"finding", "read", "--follow", "--bus", "peer-findings.jsonl"},
	} {
		p := startProc(t, bin, dir, nil, args...)
		// A wait shows as this failure, not as a slow pass.
		testfault.Within(t, 10*time.Second, fmt.Sprint(args, " on the FIFO"), func() { <-p.done })
		if got := p.cmd.ProcessState.ExitCode(); got != exitUsage || !strings.Contains(p.stderr.String(), "peer-findings.jsonl") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming the FIFO", args, got, p.stderr.String())
		}
	}
}

// A piped exchange whose call outlasts --call-timeout still gets every
// answer before the server exits at end of input: the stuck call as a tool
// error at its deadline, the others at once, none held back by it.
func TestMCPPipedExchangeAnswersAll(t *testing.T) {
	bin := fluxwatchBin(t)
	dir := t.TempDir()
	hugeProse(t, filepath.Join(dir, "slow", "fd-prose.md"))
	smallRun(t, filepath.Join(dir, "run"))
	p := startProc(t, bin, dir, nil, "mcp", "--call-timeout", "500ms")
	io.WriteString(p.stdin, mcpHello+
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_synthesis","arguments":{"output_dir":"slow"}}}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fetch_peer_findings","arguments":{"output_dir":"run"}}}`+"\n")
	p.stdoutHas(t, `"id":3,`) // answered while the call before it is still running
	if strings.Contains(p.stdout.String(), `"id":2,`) {
		t.Logf("the slow call answered before the fetch: the parse was quicker than 500 ms here")
	}
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("still running 10s after end of input; stdout:\n%s", p.stdout.String())
	}
	out := p.stdout.String()
	t.Logf("exited %v after it started", time.Since(p.start).Round(time.Millisecond))
	if got := p.cmd.ProcessState.ExitCode(); got != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", got, p.stderr.String())
	}
	if !strings.Contains(out, `"id":3,"result":{"content":[{"type":"text","text":"[{\"severity\":\"notable\",\"agent\":\"fd-b\"`) {
		t.Errorf("no findings for the fetch (id 3) in:\n%s", out)
	}
	if !strings.Contains(out, `"id":2,"result":{"content":[{"type":"text","text":"get_synthesis: no answer within 500ms (--call-timeout): the call was abandoned"}],"isError":true}`) &&
		!strings.Contains(out, `"id":2,"result":{"content":[{"type":"text","text":"{\n  \"synthesis_protocol_version\"`) {
		t.Errorf("no answer (deadline error or synthesis) for the slow call (id 2) in:\n%s", out)
	}
}
