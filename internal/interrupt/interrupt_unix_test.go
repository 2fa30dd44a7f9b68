//go:build unix

package interrupt

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary, run again, a command that ignores its
// cancelled context: the process must end by itself after Grace.
const childEnv = "INTERRUPT_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		status, _ := Run(func(ctx context.Context) error {
			os.Stdout.WriteString("ready\n")
			time.Sleep(time.Minute) // deaf to ctx
			return nil
		}, nil)
		os.Exit(status + 1) // never reached: Run exits the process
	}
	os.Exit(m.Run())
}

// TestReturnedCommandKeepsItsError: a command that returns before any
// signal gives its own error and status 0.
func TestReturnedCommandKeepsItsError(t *testing.T) {
	want := errors.New("boom")
	status, err := Run(func(ctx context.Context) error { return want }, nil)
	if status != 0 || err != want {
		t.Fatalf("Run = %d, %v; want 0, %v", status, err, want)
	}
}

// TestSignalCancels: SIGINT cancels the command's context; a command that
// then returns gives status 130 and its error.
func TestSignalCancels(t *testing.T) {
	caught := false
	status, err := Run(func(ctx context.Context) error {
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
			return errors.New("not cancelled")
		}
	}, func() { caught = true })
	if status != 130 || !errors.Is(err, context.Canceled) || !caught {
		t.Fatalf("Run = %d, %v (caught %v); want 130, context.Canceled, caught", status, err, caught)
	}
}

// TestDeafCommandEndsAfterGrace: a command that ignores its context does
// not keep the process past the grace: it exits 143 after SIGTERM, well
// within SPEC §7's second.
func TestDeafCommandEndsAfterGrace(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	took := time.Since(start)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("child ended with %v, want exit status 143", err)
	}
	if took < Grace/2 {
		t.Errorf("child ended %v after SIGTERM: it was not given the grace (%v)", took, Grace)
	}
	t.Logf("exited %v after SIGTERM", took)
}

func TestStatus(t *testing.T) {
	if Status(syscall.SIGINT) != 130 || Status(syscall.SIGTERM) != 143 {
		t.Errorf("Status: SIGINT %d, SIGTERM %d; want 130, 143", Status(syscall.SIGINT), Status(syscall.SIGTERM))
	}
}
