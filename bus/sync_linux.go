package bus

import (
	"os"

	"golang.org/x/sys/unix"
)

// datasync flushes the data of f (and the metadata needed to read it back,
// such as its size) to the disk: fdatasync(2).
func datasync(f *os.File) error {
	return fdCall(f, unix.Fdatasync)
}

// fdCall calls call with f's descriptor, again while it is interrupted
// (EINTR), and returns its error.
func fdCall(f *os.File, call func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var cerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			cerr = call(int(fd))
			if cerr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return cerr
}
