//go:build unix

package evidence

import (
	"os"
	"syscall"
)

// openFlags open a repository file for reading without blocking on a FIFO.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
