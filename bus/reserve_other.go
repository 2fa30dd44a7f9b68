//go:build !linux

package bus

import "os"

// reserve sets no room aside here: only Linux's fallocate(2) reserves it
// without changing the file's size. A write that runs out of space half way
// leaves a fragment, which the next writer ends (SPEC §3).
func reserve(*os.File, int64, int) error { return nil }
