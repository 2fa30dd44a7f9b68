package bus

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// reserve makes the file system set aside room for n bytes at offset off of
// f, the end of the bus, before they are written: fallocate(2) with
// FALLOC_FL_KEEP_SIZE, which allocates the blocks without changing the
// file's size (a reader sees nothing of it). On a full disk it fails with
// ENOSPC and nothing is written; once it succeeds, the write cannot run out
// of space half way, which would leave a fragment (SPEC §3: the bus is never
// truncated, so a fragment could never be taken back). A file system
// without fallocate is asked instead whether it has the room free (statfs),
// which keeps a full disk from cutting a record, if not a race with another
// process filling it at the same moment.
func reserve(f *os.File, off int64, n int) error {
	return fdCall(f, func(fd int) error {
		err := unix.Fallocate(fd, unix.FALLOC_FL_KEEP_SIZE, off, int64(n))
		if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.ENOSYS) {
			return err
		}
		// A statfs that fails says nothing: write and see.
		var st unix.Statfs_t
		if unix.Fstatfs(fd, &st) == nil && st.Bavail*uint64(st.Bsize) < uint64(n)+uint64(st.Bsize) {
			return unix.ENOSPC
		}
		return nil
	})
}
