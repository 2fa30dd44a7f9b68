//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package termview

import (
	"context"
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrNotTerminal is returned by Keys for an input that is not a terminal.
var ErrNotTerminal = errors.New("not a terminal")

// Keys reads single key presses from in, which must be a terminal: it puts
// the terminal in cbreak mode (no line buffering, no echo; Ctrl-C still
// sends SIGINT) and sends each byte read on keys. stop ends the reading and
// restores the terminal's mode; it waits for the reader, may be called more
// than once and must be called on every path out (a deferred call covers a
// return after SIGTERM, which ends the command's context). keys is closed
// when reading ends: at stop, at the end of ctx, or when in is closed.
//
// Keys never reads an input that is not a terminal (ErrNotTerminal): under
// an orchestrator, stdin belongs to someone else.
func Keys(ctx context.Context, in *os.File) (keys <-chan byte, stop func(), err error) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, func() {}, ErrNotTerminal
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
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
			unix.IoctlSetTermios(fd, ioctlSetTermios, old)
		})
	}
	return ch, stop, nil
}
