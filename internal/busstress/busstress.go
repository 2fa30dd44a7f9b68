// Package busstress hammers the peer-findings bus the way a real run does:
// many processes of the real `fluxwatch finding write` binary and many shell
// writers using the helper's `( flock -x 203; printf '%s\n' "$line" >> f )
// 203>f.lock` append to one bus at once, with records from 100 B to 256 KiB,
// while a reader tails it. It then checks that every record came back
// intact, none torn, none lost, and that the reader never returned a partial
// record (SPEC §9, concurrency).
//
// Storm is the kill storm (SPEC §3 and §9, faults): writer processes, some
// of them SIGKILLed while they write (aimed at the lock holder when it is
// seen in /proc/locks) or dying mid-line on purpose, while `finding read
// --follow` runs; every acknowledged record (exit 0 seen by the parent) must
// be in the bus whole exactly once and printed by the follower exactly once.
// Its accounting says what happened to every launch.
//
// `make stress` runs both at full size; short runs are part of `make test`.
package busstress

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Config sizes a run.
type Config struct {
	Bin     string // the fluxwatch binary
	Dir     string // where the bus is written
	Procs   int    // writer processes in all, shell writers included
	Shell   int    // how many of the Procs are shell writers
	Records int    // records per writer
	MinSize int    // smallest and largest summary payload, in bytes
	MaxSize int
	Seed    uint64
}

// Result is what a run found.
type Result struct {
	Records      int // written, in all
	Intact       int // complete, correct and seen once
	Torn         int // lines that are not a correct record
	Lost         int // records never found
	Duplicated   int // records found more than once
	PartialReads int // entries or diagnostics of the live reader that were not a correct record
	ReaderSeen   int // records the live reader returned
	Polls        int
	WriteErrors  int
	Bytes        int64
	Elapsed      time.Duration
}

// OK reports whether the run found nothing wrong.
func (r Result) OK() bool {
	return r.Intact == r.Records && r.Torn == 0 && r.Lost == 0 && r.Duplicated == 0 &&
		r.PartialReads == 0 && r.WriteErrors == 0 && r.ReaderSeen == r.Records
}

func (r Result) String() string {
	return fmt.Sprintf("records=%d intact=%d torn=%d lost=%d duplicated=%d partial_reads=%d reader_seen=%d polls=%d write_errors=%d bytes=%d elapsed=%s",
		r.Records, r.Intact, r.Torn, r.Lost, r.Duplicated, r.PartialReads, r.ReaderSeen, r.Polls, r.WriteErrors, r.Bytes, r.Elapsed.Round(time.Millisecond))
}

// size picks a payload size: mostly small, some medium, a few up to MaxSize,
// so that a run exercises every size without writing gigabytes.
func (c Config) size(r *rand.Rand) int {
	lo, hi := c.MinSize, c.MaxSize
	switch p := r.IntN(100); {
	case p < 70:
		hi = min(hi, 2<<10)
	case p < 95:
		lo, hi = min(2<<10, hi), min(32<<10, hi)
	default:
		lo = min(32<<10, hi)
	}
	return lo + r.IntN(hi-lo+1)
}

// record returns the entry writer w writes as its record n. Its summary
// carries a header that lets Verify check it: "w=W n=N len=L crc=C|" then L
// bytes of payload.
func (c Config) record(w, n int) bus.Entry {
	r := rand.New(rand.NewPCG(c.Seed, uint64(w)<<32|uint64(n)))
	payload := make([]byte, c.size(r))
	const letters = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\"\\'<>&é—"
	lb := []rune(letters)
	var b strings.Builder
	for b.Len() < len(payload) {
		b.WriteRune(lb[r.IntN(len(lb))])
	}
	p := b.String()
	sev := bus.Notable
	if n%5 == 0 {
		sev = bus.Blocking
	}
	return bus.Entry{
		Severity:  sev,
		Agent:     fmt.Sprintf("stress-w%03d", w),
		Category:  "stress",
		Summary:   fmt.Sprintf("w=%d n=%d len=%d crc=%08x|%s", w, n, len(p), crc32.ChecksumIEEE([]byte(p)), p),
		FileRefs:  []string{fmt.Sprintf("stress/w%d.go:%d", w, n+1)},
		Timestamp: "2026-11-20T10:00:00Z",
	}
}

// check returns the writer and record number of a correct record.
func check(e bus.Entry) (w, n int, ok bool) {
	head, payload, found := strings.Cut(e.Summary, "|")
	if !found {
		return 0, 0, false
	}
	var l int
	var crc uint32
	if _, err := fmt.Sscanf(head, "w=%d n=%d len=%d crc=%08x", &w, &n, &l, &crc); err != nil {
		return 0, 0, false
	}
	if len(payload) != l || crc32.ChecksumIEEE([]byte(payload)) != crc ||
		e.Agent != fmt.Sprintf("stress-w%03d", w) || len(e.FileRefs) != 1 || e.FileRefs[0] != fmt.Sprintf("stress/w%d.go:%d", w, n+1) {
		return 0, 0, false
	}
	return w, n, true
}

// shellWriter is the shell helper's append, run over a file of lines.
const shellWriter = `while IFS= read -r line; do ( flock -x 203; printf '%s\n' "$line" >> "$1" ) 203>"$1.lock"; done < "$2"`

// Run writes cfg.Procs × cfg.Records records to a new bus in cfg.Dir at once
// while a reader tails it, then verifies the bus. progress, if not nil, gets
// a line now and then.
func Run(ctx context.Context, cfg Config, progress io.Writer) (Result, error) {
	if _, err := exec.LookPath("flock"); err != nil {
		return Result{}, errors.New("flock(1) (util-linux) is not installed: `make stress` installs it")
	}
	if cfg.Shell > cfg.Procs {
		cfg.Shell = cfg.Procs
	}
	path := filepath.Join(cfg.Dir, "peer-findings.jsonl")
	os.Remove(path)
	res := Result{Records: cfg.Procs * cfg.Records}

	// The shell writers' lines, made beforehand so that they write at full speed.
	for w := range cfg.Shell {
		var b bytes.Buffer
		for n := range cfg.Records {
			b.Write(bus.Encode(cfg.record(w, n)))
		}
		if err := os.WriteFile(filepath.Join(cfg.Dir, fmt.Sprintf("shell-%d.lines", w)), b.Bytes(), 0o644); err != nil {
			return res, err
		}
	}

	start := time.Now()
	readerDone := make(chan struct{})
	writersDone := make(chan struct{})
	var seen atomic.Int64
	go func() {
		defer close(readerDone)
		t := bus.NewTail(path, 0)
		poll := func() {
			res.Polls++
			t.Poll(func(e bus.Entry) error {
				if _, _, ok := check(e); ok {
					res.ReaderSeen++
					seen.Add(1)
				} else {
					res.PartialReads++
				}
				return nil
			}, func(parse.Diagnostic) { res.PartialReads++ })
		}
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-writersDone:
				poll()
				return
			case <-tick.C:
				poll()
			}
		}
	}()

	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		res.WriteErrors++
		if firstErr == nil {
			firstErr = err
		}
	}
	var wg sync.WaitGroup
	for w := range cfg.Procs {
		wg.Go(func() {
			if w < cfg.Shell {
				lines := filepath.Join(cfg.Dir, fmt.Sprintf("shell-%d.lines", w))
				cmd := exec.CommandContext(ctx, "bash", "-c", shellWriter, "shell-writer", path, lines)
				if out, err := cmd.CombinedOutput(); err != nil {
					fail(fmt.Errorf("shell writer %d: %v: %s", w, err, out))
				}
				return
			}
			for n := range cfg.Records {
				e := cfg.record(w, n)
				args := []string{"finding", "write", "--bus", path, "--severity", e.Severity, "--agent", e.Agent,
					"--category", e.Category, "--file-ref", e.FileRefs[0], "--timestamp", e.Timestamp}
				cmd := exec.CommandContext(ctx, cfg.Bin, args...)
				if len(e.Summary) < 64<<10 && n%2 == 0 {
					cmd.Args = append(cmd.Args, "--summary", e.Summary)
				} else {
					cmd.Args = append(cmd.Args, "--summary", "-") // over the argv limit of one argument
					cmd.Stdin = strings.NewReader(e.Summary)
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					fail(fmt.Errorf("fluxwatch writer %d record %d: %v: %s", w, n, err, out))
					if ctx.Err() != nil {
						return
					}
				}
			}
		})
	}
	if progress != nil {
		go func() {
			tick := time.NewTicker(10 * time.Second)
			defer tick.Stop()
			for {
				select {
				case <-readerDone:
					return
				case <-tick.C:
					fmt.Fprintf(progress, "busstress: %d/%d records read so far (%s)\n", seen.Load(), res.Records, time.Since(start).Round(time.Second))
				}
			}
		}()
	}
	wg.Wait()
	close(writersDone)
	<-readerDone
	res.Elapsed = time.Since(start)
	if firstErr != nil {
		return res, firstErr
	}
	return res, verify(path, cfg, &res)
}

// verify reads the finished bus independently of the fluxwatch reader (plain
// line splitting and encoding/json) and counts intact, torn, lost and
// duplicated records.
func verify(path string, cfg Config, res *Result) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	res.Bytes = fi.Size()
	found := make(map[[2]int]int, res.Records)
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				res.Torn++ // bytes after the last newline: a record cut short
				break
			}
			var e bus.Entry
			if json.Unmarshal(line, &e) != nil {
				res.Torn++
				continue
			}
			w, n, ok := check(e)
			if !ok || w >= cfg.Procs || n >= cfg.Records {
				res.Torn++
				continue
			}
			found[[2]int{w, n}]++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	for _, c := range found {
		res.Intact++
		if c > 1 {
			res.Duplicated += c - 1
		}
	}
	res.Lost = res.Records - len(found)
	return nil
}
