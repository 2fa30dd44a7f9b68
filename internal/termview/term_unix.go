//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package termview

import (
	"context"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// ReaderGone returns a channel that is closed once w, a pipe, has no reader
// any more (the reader exited: | head -1), checked until ctx ends; nil when
// w is not a pipe. A process whose output goes only to that pipe learns so
// without writing to it: a write to a pipe without a reader is SIGPIPE,
// which ends the process at once, whatever it was in the middle of.
func ReaderGone(ctx context.Context, w io.Writer) <-chan struct{} {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	fd := int32(f.Fd())
	gone := make(chan struct{})
	go func() {
		for ctx.Err() == nil {
			// No events asked for: only POLLERR (the pipe's reader is
			// gone) or POLLHUP wakes it before the timeout.
			fds := []unix.PollFd{{Fd: fd}}
			n, err := unix.Poll(fds, int(readerGonePoll/time.Millisecond))
			switch {
			case err == unix.EINTR:
			case err != nil || fds[0].Revents&unix.POLLNVAL != 0:
				return // not to be polled: never said gone
			case n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0:
				close(gone)
				return
			}
		}
	}()
	return gone
}

// readerGonePoll is how often ReaderGone looks at ctx between polls.
const readerGonePoll = 250 * time.Millisecond
