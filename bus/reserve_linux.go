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
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = unix.Fallocate(int(fd), unix.FALLOC_FL_KEEP_SIZE, off, int64(n))
			if ferr != unix.EINTR {
				break
			}
		}
		if errors.Is(ferr, unix.EOPNOTSUPP) || errors.Is(ferr, unix.ENOSYS) {
			ferr = nil // a statfs that fails says nothing: write and see
			var st unix.Statfs_t
			if unix.Fstatfs(int(fd), &st) == nil && st.Bavail*uint64(st.Bsize) < uint64(n)+uint64(st.Bsize) {
				ferr = unix.ENOSPC
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}
