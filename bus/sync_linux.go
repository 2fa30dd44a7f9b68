package bus

import (
	"os"

	"golang.org/x/sys/unix"
)

// datasync flushes the data of f (and the metadata needed to read it back,
// such as its size) to the disk: fdatasync(2).
func datasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			serr = unix.Fdatasync(int(fd))
			if serr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return serr
}
