//go:build !unix

package fsio

import "os"

// readFlags open for reading (there are no FIFOs to block on here).
const readFlags = os.O_RDONLY

const writeNonblock = 0

func noReader(error) bool { return false }
