//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package termview

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// ErrNotTerminal is returned by Keys for an input that is not a terminal.
var ErrNotTerminal = errors.New("not a terminal")

// The keys a terminal turns into signals, at their usual places.
const (
	keyInterrupt = 0x03 // Ctrl-C: SIGINT
	keySuspend   = 0x1a // Ctrl-Z: SIGTSTP
	keyQuit      = 0x1c // Ctrl-\: SIGQUIT
)

// Keys reads single key presses from in, which must be a terminal: it puts
// the terminal in raw mode (golang.org/x/term: no line buffering, no echo)
// and sends each byte read on keys. stop ends the reading and restores the
// terminal's mode; it waits for the reader, may be called more than once
// and must be called on every path out (a deferred call covers a return
// after SIGTERM, which ends the command's context). keys is closed when
// reading ends: at stop, at the end of ctx, or when in is closed.
//
// Raw mode also keeps the terminal from turning keys into signals, so Keys
// does it, for the keys at their usual places (a key moved with stty is not
// followed), and never sends them on keys: Ctrl-C is SIGINT to this
// process, which ends the command as any SIGINT does; Ctrl-\ restores the
// terminal, then is SIGQUIT; Ctrl-Z restores the terminal, takes v off the
// alternate screen and stops the process (SIGTSTP), and once it is
// continued (fg) puts both back. v may be nil.
//
// Keys never reads an input that is not a terminal (ErrNotTerminal): under
// an orchestrator, stdin belongs to someone else.
func Keys(ctx context.Context, in *os.File, v *View) (keys <-chan byte, stop func(), err error) {
	fd := int(in.Fd())
	if !term.IsTerminal(fd) {
		return nil, func() {}, ErrNotTerminal
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, func() {}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan byte, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(ch)
		buf := make([]byte, 16)
		for ctx.Err() == nil {
			// Poll with a timeout so that the reader notices stop without
			// a key press; never block in read.
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, 100)
			if err != nil && err != unix.EINTR {
				return
			}
			if n <= 0 || fds[0].Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) == 0 {
				continue
			}
			m, err := unix.Read(fd, buf)
			if m <= 0 {
				if err == unix.EINTR || err == unix.EAGAIN {
					continue
				}
				return // end of input
			}
			for _, b := range buf[:m] {
				switch b {
				case keyInterrupt:
					unix.Kill(unix.Getpid(), unix.SIGINT)
					continue
				case keyQuit:
					term.Restore(fd, old)
					v.Suspend()
					unix.Kill(unix.Getpid(), unix.SIGQUIT)
					continue
				case keySuspend:
					if old = suspend(ctx, fd, old, v); old == nil {
						return // ended while stopped: the terminal is restored
					}
					continue
				}
				select {
				case ch <- b:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			if old != nil {
				term.Restore(fd, old)
			}
		})
	}
	return ch, stop, nil
}

// suspend does what the terminal does for Ctrl-Z, the mode and the view
// first: it restores the terminal's mode (old), takes v off the alternate
// screen and stops the process with SIGTSTP. Once the process is continued
// it puts the terminal back in raw mode and redraws v, and returns the mode
// to restore at the end: the terminal's mode then, which the shell may have
// set meanwhile. It returns nil, leaving the terminal restored, when ctx
// ends first or the terminal cannot be put back in raw mode.
//
// Where the terminal's Ctrl-Z would do nothing, so does this: SIGTSTP
// ignored, or a process group no shell controls (an orphaned one, where the
// kernel discards SIGTSTP). The process then does not stop, no SIGCONT
// comes, and after stopWait the view and raw mode come back.
func suspend(ctx context.Context, fd int, old *term.State, v *View) *term.State {
	if signal.Ignored(unix.SIGTSTP) {
		return old
	}
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, unix.SIGCONT)
	defer signal.Stop(cont)
	term.Restore(fd, old)
	v.Suspend()
	unix.Kill(unix.Getpid(), unix.SIGTSTP)
	// A stop takes effect within microseconds of the signal; stopWait
	// only covers a thread of the process that is slow to take it. After
	// a stop, SIGCONT is here (the timer too, long expired): either way
	// the process was continued.
	stopped := time.NewTimer(stopWait)
	defer stopped.Stop()
	select {
	case <-cont:
	case <-stopped.C:
	case <-ctx.Done():
		return nil
	}
	now, err := term.MakeRaw(fd)
	if err != nil {
		return nil
	}
	v.Resume()
	return now
}

// stopWait is how long suspend waits for SIGTSTP to stop the process.
const stopWait = 100 * time.Millisecond
