//go:build unix

package busstress

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
)

// StormConfig sizes a kill storm: writer processes launched a few at a time,
// some of them SIGKILLed while they write, while a reader follows the bus.
type StormConfig struct {
	Bin      string // the fluxwatch binary
	Dir      string // where the bus is written
	Launches int    // writer processes launched in all
	Parallel int    // writers running at once
	// ShellPercent of the launches are shell helper writers
	// (`( flock -x 203; printf '%s\n' "$line" >> f ) 203>f.lock`);
	// TornPercent are shell writers that, holding the lock, append part of
	// their line and SIGKILL themselves: a writer killed mid-line, for sure.
	ShellPercent int
	TornPercent  int
	// KillEvery is the killer's period: each time it SIGKILLs one running
	// writer, the one seen holding the bus lock (/proc/locks) when there is
	// one, else one at random.
	KillEvery time.Duration
	MinSize   int // smallest and largest summary payload, in bytes
	MaxSize   int
	Seed      uint64
	// FixedHelper makes the shell writers end a fragment with "\n" before
	// appending, as finding write does; the helper as shipped does not.
	FixedHelper bool
	NoSync      bool // pass --no-sync to finding write
}

// StormResult is the accounting of a kill storm.
type StormResult struct {
	Launched         int // writer processes started
	Acknowledged     int // exited 0: their record must be in the bus, once
	AckFluxwatch     int // of them, finding write
	Killed           int // ended by SIGKILL (by the killer, or torn writers by themselves)
	HolderKills      int // kills aimed at a writer seen holding the lock
	KilledButWritten int // killed, yet their record is in the bus whole
	Fragments        int // invalid lines in the bus: what killed writers left
	Lost             int // acknowledged records not in the bus whole
	// Swallowed are acknowledged shell helper records lost because the
	// helper appended them after a fragment without ending it: a fragment
	// and the record make one invalid line. finding write never does that;
	// they are counted apart and are not part of Lost.
	Swallowed    int
	Duplicated   int // records in the bus more than once
	Failed       int // writers that exited non-zero without being killed
	ReaderSeen   int // acknowledged records the follower printed
	ReaderMissed int // acknowledged records the follower never printed
	ReaderDup    int // records the follower printed more than once
	ReaderBad    int // follower output lines that are not a correct record
	Bytes        int64
	Elapsed      time.Duration
}

// OK reports whether every acknowledged record was read back exactly once.
func (r StormResult) OK() bool {
	return r.Lost == 0 && r.Duplicated == 0 && r.Failed == 0 && r.ReaderMissed == 0 &&
		r.ReaderDup == 0 && r.ReaderBad == 0 && r.Acknowledged > 0
}

func (r StormResult) String() string {
	return fmt.Sprintf("launched=%d acknowledged=%d (finding write %d) killed=%d (aimed at the lock holder %d) killed_but_written=%d "+
		"torn_fragments=%d lost=%d duplicated=%d shell_swallowed=%d failed=%d reader_seen=%d reader_missed=%d reader_duplicated=%d reader_bad=%d bytes=%d elapsed=%s",
		r.Launched, r.Acknowledged, r.AckFluxwatch, r.Killed, r.HolderKills, r.KilledButWritten, r.Fragments, r.Lost, r.Duplicated,
		r.Swallowed, r.Failed, r.ReaderSeen, r.ReaderMissed, r.ReaderDup, r.ReaderBad, r.Bytes, r.Elapsed.Round(time.Millisecond))
}

// The shell writers: the helper's append, the same with the fragment fix,
// and a writer that dies holding the lock after K bytes of its line.
const (
	helperWrite = `IFS= read -r line < "$2"; ( flock -x 203; printf '%s\n' "$line" >> "$1" ) 203>"$1.lock"`
	fixedWrite  = `IFS= read -r line < "$2"; ( flock -x 203; if [ -s "$1" ] && [ -n "$(tail -c 1 "$1")" ]; then printf '\n' >> "$1"; fi; printf '%s\n' "$line" >> "$1" ) 203>"$1.lock"`
	tornWrite   = `( flock -x 203; head -c "$3" "$2" >> "$1"; kill -9 0 ) 203>"$1.lock"`
)

type writerKind int

const (
	kindFluxwatch writerKind = iota
	kindShell
	kindTorn
)

// launch is one writer process and what became of it.
type launch struct {
	kind   writerKind
	cmd    *exec.Cmd
	acked  bool
	killed bool
}

// Storm runs a kill storm on a new bus in cfg.Dir and accounts for every
// record. progress, if not nil, gets a line now and then.
func Storm(ctx context.Context, cfg StormConfig, progress io.Writer) (StormResult, error) {
	var res StormResult
	if _, err := exec.LookPath("flock"); err != nil {
		return res, errors.New("flock(1) (util-linux) is not installed: `make stress` installs it")
	}
	cfg.Parallel = max(cfg.Parallel, 1)
	path := filepath.Join(cfg.Dir, "peer-findings.jsonl")
	os.Remove(path)
	os.Remove(path + ".lock")
	// Create both first: the follower follows an existing file, and the
	// killer needs the lock file's inode.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return res, err
	}
	if err := os.WriteFile(path+".lock", nil, 0o644); err != nil {
		return res, err
	}
	lockIno := inode(path + ".lock")
	gen := Config{MinSize: cfg.MinSize, MaxSize: cfg.MaxSize, Seed: cfg.Seed}
	rnd := rand.New(rand.NewPCG(cfg.Seed, 7))
	start := time.Now()

	// The follower: `finding read --follow`, as an agent would run it.
	fctx, stopFollow := context.WithCancel(ctx)
	defer stopFollow()
	follower := exec.CommandContext(fctx, cfg.Bin, "finding", "read", "--follow", "--bus", path, "--interval", "20ms", "-q")
	follower.Cancel = func() error { return follower.Process.Signal(os.Interrupt) }
	out, err := follower.StdoutPipe()
	if err != nil {
		return res, err
	}
	var ferr bytes.Buffer
	follower.Stderr = &ferr
	if err := follower.Start(); err != nil {
		return res, err
	}
	var readMu sync.Mutex
	readSeen := map[int]int{}
	readBad := 0
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				var e bus.Entry
				w, _, ok := 0, 0, false
				if json.Unmarshal(line, &e) == nil {
					w, _, ok = check(e)
				}
				readMu.Lock()
				if ok {
					readSeen[w]++
				} else {
					readBad++
				}
				readMu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()

	// The writers, cfg.Parallel at a time, and the killer.
	var mu sync.Mutex
	running := map[int]*launch{} // by pid
	launches := make([]*launch, cfg.Launches)
	slots := make(chan struct{}, cfg.Parallel)
	var wg sync.WaitGroup
	var firstErr error
	killerDone := make(chan struct{})
	stopKiller := make(chan struct{})
	go func() {
		defer close(killerDone)
		if cfg.KillEvery <= 0 {
			return
		}
		krnd := rand.New(rand.NewPCG(cfg.Seed, 11))
		for {
			wait := cfg.KillEvery/2 + time.Duration(krnd.Int64N(int64(cfg.KillEvery)))
			select {
			case <-stopKiller:
				return
			case <-time.After(wait):
			}
			holder := lockHolder(lockIno)
			mu.Lock()
			var victim *launch
			if l, ok := running[holder]; ok && l.kind == kindFluxwatch {
				victim = l
				res.HolderKills++
			} else if len(running) > 0 {
				pids := make([]int, 0, len(running))
				for pid := range running {
					pids = append(pids, pid)
				}
				victim = running[pids[krnd.IntN(len(pids))]]
			}
			if victim != nil {
				syscall.Kill(-victim.cmd.Process.Pid, syscall.SIGKILL) // its process group
			}
			mu.Unlock()
		}
	}()

	for i := range cfg.Launches {
		e := gen.record(i, 0)
		l := &launch{kind: kindFluxwatch}
		switch p := rnd.IntN(100); {
		case p < cfg.TornPercent:
			l.kind = kindTorn
		case p < cfg.TornPercent+cfg.ShellPercent:
			l.kind = kindShell
		}
		switch l.kind {
		case kindFluxwatch:
			args := []string{"finding", "write", "--bus", path, "--severity", e.Severity, "--agent", e.Agent,
				"--category", e.Category, "--file-ref", e.FileRefs[0], "--timestamp", e.Timestamp, "--summary", "-"}
			if cfg.NoSync {
				args = append(args, "--no-sync")
			}
			l.cmd = exec.Command(cfg.Bin, args...)
			l.cmd.Stdin = strings.NewReader(e.Summary)
		default:
			lineFile := filepath.Join(cfg.Dir, fmt.Sprintf("line-%d", i))
			line := bus.Encode(e)
			if err := os.WriteFile(lineFile, line, 0o644); err != nil {
				return res, err
			}
			script := helperWrite
			if cfg.FixedHelper {
				script = fixedWrite
			}
			args := []string{"-c", script, "writer", path, lineFile}
			if l.kind == kindTorn {
				args = []string{"-c", tornWrite, "torn", path, lineFile, strconv.Itoa(1 + rnd.IntN(len(line)-2))}
			}
			l.cmd = exec.Command("bash", args...)
		}
		l.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var stderr bytes.Buffer
		l.cmd.Stderr = &stderr
		launches[i] = l
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return res, ctx.Err()
		}
		mu.Lock()
		err := l.cmd.Start()
		if err == nil {
			running[l.cmd.Process.Pid] = l
			res.Launched++
		}
		mu.Unlock()
		if err != nil {
			return res, err
		}
		wg.Go(func() {
			defer func() { <-slots }()
			err := l.cmd.Wait()
			mu.Lock()
			defer mu.Unlock()
			delete(running, l.cmd.Process.Pid)
			ws, _ := l.cmd.ProcessState.Sys().(syscall.WaitStatus)
			switch {
			case err == nil:
				l.acked = true
			case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
				l.killed = true
			case l.kind == kindShell && ws.ExitStatus() == 137:
				l.killed = true // the subshell holding the lock was killed
			default:
				res.Failed++
				if firstErr == nil {
					firstErr = fmt.Errorf("writer %d: %v: %s", i, err, stderr.String())
				}
			}
		})
		if progress != nil && i > 0 && i%1000 == 0 {
			fmt.Fprintf(progress, "storm: %d/%d writers launched (%s)\n", i, cfg.Launches, time.Since(start).Round(time.Second))
		}
	}
	wg.Wait()
	close(stopKiller)
	<-killerDone

	// Every launch's fate, then the bus as an independent reader sees it.
	found, swallowed, fragments, size, err := census(path, cfg.Launches)
	if err != nil {
		return res, err
	}
	res.Fragments, res.Bytes = fragments, size
	for i, l := range launches {
		switch {
		case l.killed:
			res.Killed++
			if found[i] > 0 {
				res.KilledButWritten++
			}
		case l.acked:
			res.Acknowledged++
			if l.kind == kindFluxwatch {
				res.AckFluxwatch++
			}
			if found[i] == 0 {
				if l.kind == kindShell && swallowed[i] {
					res.Swallowed++
				} else {
					res.Lost++
				}
			}
		}
		if found[i] > 1 {
			res.Duplicated += found[i] - 1
		}
	}

	// The follower must print every acknowledged record once: give it the
	// time to catch up, then stop it.
	deadline := time.Now().Add(15 * time.Second)
	for {
		readMu.Lock()
		missing := 0
		for i, l := range launches {
			if l.acked && found[i] > 0 && readSeen[i] == 0 {
				missing++
			}
		}
		readMu.Unlock()
		if missing == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopFollow()
	<-readDone
	follower.Wait()
	readMu.Lock()
	for i, l := range launches {
		n := readSeen[i]
		if n > 1 {
			res.ReaderDup += n - 1
		}
		if l.acked && found[i] > 0 {
			if n > 0 {
				res.ReaderSeen++
			} else {
				res.ReaderMissed++
			}
		}
	}
	res.ReaderBad = readBad
	readMu.Unlock()
	res.Elapsed = time.Since(start)
	if firstErr == nil && ferr.Len() > 0 {
		firstErr = fmt.Errorf("finding read --follow: %s", ferr.String())
	}
	return res, firstErr
}

// census reads the finished bus independently of fluxwatch (line splitting
// and encoding/json): how many times each record is there whole, which
// records were swallowed by a fragment (found as the tail of an invalid
// line), the invalid lines, and the size.
func census(path string, launches int) (found map[int]int, swallowed map[int]bool, fragments int, size int64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	found, swallowed = map[int]int{}, map[int]bool{}
	for len(data) > 0 {
		line := data
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			data = nil // bytes after the last newline: a fragment nobody ended yet
		} else {
			line, data = data[:i+1], data[i+1:]
		}
		size += int64(len(line))
		if w, ok := record(line, launches); ok {
			found[w]++
			continue
		}
		fragments++
		// A record appended to a fragment without a newline in between.
		for j := 1; j < len(line); j++ {
			k := bytes.Index(line[j:], []byte(`{"severity":`))
			if k < 0 {
				break
			}
			j += k
			if w, ok := record(line[j:], launches); ok {
				swallowed[w] = true
				break
			}
		}
	}
	return found, swallowed, fragments, size, nil
}

// record returns the writer of a line that is one whole, correct record.
func record(line []byte, launches int) (int, bool) {
	var e bus.Entry
	if json.Unmarshal(line, &e) != nil {
		return 0, false
	}
	w, n, ok := check(e)
	return w, ok && n == 0 && w < launches
}

// inode returns the inode number of the file at path, or 0.
func inode(path string) uint64 {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0
	}
	return uint64(st.Ino)
}

// lockHolder returns the pid holding a flock on the file with inode ino, as
// /proc/locks says (Linux), or 0.
func lockHolder(ino uint64) int {
	data, err := os.ReadFile("/proc/locks")
	if err != nil || ino == 0 {
		return 0
	}
	suffix := ":" + strconv.FormatUint(ino, 10)
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		// "1: FLOCK  ADVISORY  WRITE 6162 fe:00:10002439 0 EOF"; waiters have "->".
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" || !strings.HasSuffix(f[5], suffix) {
			continue
		}
		pid, _ := strconv.Atoi(f[4])
		return pid
	}
	return 0
}
