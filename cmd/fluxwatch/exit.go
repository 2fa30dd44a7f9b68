package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/inert"
	"github.com/fluxwatch/fluxwatch/internal/redact"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
)

// Exit codes (SPEC §7). A command ended by SIGINT or SIGTERM exits 128 + the
// signal's number instead (mainStatus).
const (
	exitOK       = 0
	exitGate     = 1
	exitUsage    = 2
	exitInternal = 3
)

// usageError is a usage or input error: exit 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usageErrorf(format string, a ...any) error {
	return usageError{fmt.Errorf(format, a...)}
}

// exitError carries an exit code and an optional message.
type exitError struct {
	code int
	err  error
}

func (x exitError) Error() string {
	if x.err == nil {
		return fmt.Sprintf("exit %d", x.code)
	}
	return x.err.Error()
}
func (x exitError) Unwrap() error { return x.err }

// exitCode prints err (if any) as one line on stderr, credentials
// redacted, and maps it to an exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	stderr = redact.Writer(stderr)
	var x exitError
	if errors.As(err, &x) {
		if x.err != nil {
			fmt.Fprintf(stderr, "fluxwatch: %s\n", inert.Line(x.err.Error()))
		}
		return x.code
	}
	fmt.Fprintf(stderr, "fluxwatch: %s\n", inert.Line(err.Error()))
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitInternal
}

// jobError is err, of runjob, as the error of a command: the exit status
// it carries, its message.
func jobError(err error) error {
	var je *runjob.Error
	switch {
	case !errors.As(err, &je):
		return err
	case je.Status == runjob.StatusInput:
		return usageError{je.Err}
	}
	return exitError{je.Status, je.Err}
}

// busError is the error of a bus once it is open: a server that stops
// answering, or that accepted the connection and never answers a request
// within the bus timeout (bus.ErrUnavailable), cannot be reached, an input
// error (exit 2) as at the open; other errors are internal (exit 3).
func busError(err error) error {
	if errors.Is(err, bus.ErrUnavailable) {
		return usageError{err}
	}
	return err
}
