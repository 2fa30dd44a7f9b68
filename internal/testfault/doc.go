// Package testfault makes the faults that fluxwatch's tests attack their code
// with, each in one place: a FIFO where a file is expected ([Mkfifo],
// [ReleaseFIFO]), a pseudo-terminal for the terminal paths ([OpenPTY]), a
// server that accepts and never answers ([SilentServer]), one that connects
// as NATS and then never answers ([MuteNATSServer]), a disk that fills up
// ([SmallFS]), a run whose agent text holds control characters
// ([ControlRun]), and a deadline for code that must never block ([Within]).
//
// Every helper skips the test (never fails it) where the fault cannot be made
// on this system, so the tests that use it still build and run everywhere.
//
// Only _test.go files import it. It must never be imported by production
// code, hold assertions about fluxwatch itself, or touch anything outside the
// paths the test gives it.
package testfault
