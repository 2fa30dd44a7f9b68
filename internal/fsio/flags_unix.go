//go:build unix

package fsio

import "syscall"

// readFlags open for reading without blocking on a FIFO with no writer.
const readFlags = syscall.O_RDONLY | syscall.O_NONBLOCK

// writeNonblock opens for writing without blocking on a FIFO with no reader
// (the open fails with ENXIO instead).
const writeNonblock = syscall.O_NONBLOCK

// noReader reports whether err is the ENXIO of a non-blocking open of a FIFO
// that has no reader.
func noReader(err error) bool { return errorsIs(err, syscall.ENXIO) }
