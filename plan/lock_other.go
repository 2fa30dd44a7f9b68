//go:build !unix

package plan

import "errors"

// lock is not available off Unix.
func lock(path string) (unlock func(), err error) {
	return nil, errors.New("lock " + path + ": file locking needs a Unix system")
}
