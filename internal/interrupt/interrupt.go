// Package interrupt runs a command under SIGINT and SIGTERM as SPEC §7
// asks: the first signal cancels the command's context, and a command
// that has not returned by itself Grace later is not waited for. It owns
// the process's signals and its exit after one; what a command prints and
// which status it returns otherwise are the caller's.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
)

// Grace is how long a command has, after the first SIGINT or SIGTERM, to
// return by itself before the process ends anyway (SPEC §7: every command
// ends within 1 s of the signal, whatever it is doing).
const Grace = 750 * time.Millisecond

// Echo is how soon a repeat of the first signal counts as the same one:
// GNU timeout signals the child and then its whole process group, so a
// command run under it gets SIGTERM twice within microseconds. Only a
// second signal after this, or another signal, ends the process at once.
const Echo = 100 * time.Millisecond

// Run runs command with a context that the first SIGINT or SIGTERM
// cancels, and returns the status the signal calls for and its error:
// 128 + its number (130 for SIGINT, 143 for SIGTERM), 0 when command
// returned before any signal. A command that has not returned Grace
// after the signal (or at a second one) is not waited for: the temporary
// files of its writes in flight are removed (fsio.RemoveTemps) and the
// process exits with that status at once. caught, when not nil, is called
// once the signals are caught: one sent before then ends the process by
// its default action.
func Run(command func(ctx context.Context) error, caught func()) (status int, err error) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	if caught != nil {
		caught()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var mu sync.Mutex
	returned, done := false, make(chan struct{})
	go func() {
		sig := <-sigs
		mu.Lock()
		if returned {
			mu.Unlock()
			return // too late to interrupt: the caller exits with the command's own status
		}
		status = Status(sig)
		mu.Unlock()
		cancel()
		if waitGrace(sig, sigs, done) {
			fsio.RemoveTemps()
			os.Exit(status)
		}
	}()

	err = command(ctx)
	close(done)
	mu.Lock()
	defer mu.Unlock()
	returned = true
	return status, err
}

// waitGrace waits Grace after the first signal sig, or until another
// signal arrives on sigs (true: the process ends now), or until the
// command is done (false: its caller ends the process). The same signal
// again at once (GNU timeout sends two) is the first one.
func waitGrace(sig os.Signal, sigs <-chan os.Signal, done <-chan struct{}) bool {
	t := time.NewTimer(Grace)
	defer t.Stop()
	first := time.Now()
	for {
		select {
		case <-done:
			return false
		case <-t.C:
			return true
		case again := <-sigs:
			if again != sig || time.Since(first) >= Echo {
				return true
			}
		}
	}
}

// Status is the conventional exit status of a process ended by sig: 128 +
// its number.
func Status(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGTERM)
}
