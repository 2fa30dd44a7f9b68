//go:build !linux

package bus

import "os"

// datasync flushes f to the disk. Where fdatasync(2) is missing this is
// fsync (on Darwin, os.File.Sync is F_FULLFSYNC).
func datasync(f *os.File) error { return f.Sync() }
