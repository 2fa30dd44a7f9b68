//go:build unix

package parse_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used: on a
// shared machine, wall time says more about the neighbours than the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
