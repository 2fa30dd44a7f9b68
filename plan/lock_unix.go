//go:build unix

package plan

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock on path (created if missing), waiting as long
// as another process holds it: the kernel queues the waiters, and a holder
// keeps it only for one read-modify-write of a small file. The returned
// function releases it.
func lock(path string) (unlock func(), err error) {
	// O_NOFOLLOW: a planted symbolic link must not make us create or open a
	// file elsewhere.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
