//go:build !unix

package evidence

import "os"

// openFlags open a repository file for reading.
const openFlags = os.O_RDONLY
