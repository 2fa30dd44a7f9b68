package fsio

import (
	"fmt"
	"os"
)

// LockIn is Lock for the lock file name inside root: the file is created
// and opened by root (never through a link out of it), then locked the same
// way, so it excludes holders of Lock on the same file.
func LockIn(root *os.Root, name string) (unlock func(), err error) {
	f, err := root.OpenFile(name, os.O_RDWR|os.O_CREATE|lockFlags, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return lockFile(f, name)
}
