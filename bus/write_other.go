//go:build !unix

package bus

import (
	"fmt"
	"os"
)

// appendFlags: there are no FIFOs to block on here.
const appendFlags = 0

// writeOnce writes b with one call; the lock file keeps other writers out.
func writeOnce(f *os.File, b []byte) error {
	n, err := f.Write(b)
	if err != nil {
		return err
	}
	if n != len(b) {
		return fmt.Errorf("short write: %d of %d bytes", n, len(b))
	}
	return nil
}

// ignorableDirSyncError: directories cannot be synced here.
func ignorableDirSyncError(error) bool { return true }
