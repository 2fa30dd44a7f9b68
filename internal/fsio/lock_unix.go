//go:build unix

package fsio

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive flock(2) on the lock file at path, creating it
// (mode 0666 before the umask) and waiting as long as another holder keeps
// it; the kernel queues the waiters. It never follows a symbolic link planted
// at path. The returned function releases the lock; so does the death of the
// process, which is what makes a SIGKILLed holder harmless.
//
// The shell helper takes the same lock with `flock -x FD` on the same file,
// so fluxwatch and shell writers exclude each other.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|lockFlags, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return lockFile(f, path)
}

// lockFlags open a lock file: never through a symbolic link, never blocking.
const lockFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK

// lockFile takes the exclusive flock of the open lock file f (named path),
// closing it on failure.
func lockFile(f *os.File, path string) (unlock func(), err error) {
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = NotRegular(path, info.Mode())
		}
		return nil, fmt.Errorf("lock: %w", err)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = unix.Flock(int(fd), unix.LOCK_EX)
			if !errors.Is(ferr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		ferr = err
	}
	if ferr != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, ferr)
	}
	return func() { f.Close() }, nil // closing the descriptor releases it
}
