//go:build unix

package bus

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// appendFlags open the bus for appending without blocking on a FIFO.
const appendFlags = unix.O_NONBLOCK

// writeOnce writes b with a single write(2), retried only when the call was
// interrupted before writing anything.
func writeOnce(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var werr error
	if err := rc.Write(func(fd uintptr) bool {
		for {
			n, werr = unix.Write(int(fd), b)
			if !errors.Is(werr, unix.EINTR) {
				return true
			}
		}
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if n != len(b) {
		return fmt.Errorf("short write: %d of %d bytes", n, len(b))
	}
	return nil
}

// ignorableDirSyncError reports whether a directory fsync failed only because
// the filesystem does not sync directories.
func ignorableDirSyncError(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP)
}
