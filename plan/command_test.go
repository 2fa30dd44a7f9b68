package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCommand runs Command with the plan root dir and returns its stdout,
// stderr and exit code (0 on success, -1 for an error that is not an
// *ExitError).
func runCommand(t *testing.T, planDir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
		if k == "FLUXWATCH_PLAN_DIR" {
			return planDir
		}
		return ""
	}}
	err := Command(context.Background(), env, args)
	var x *ExitError
	switch {
	case err == nil:
	case errors.As(err, &x):
		code = x.Code
		errOut.WriteString(x.Error() + "\n")
	default:
		code = -1
	}
	return out.String(), errOut.String(), code
}

// TestCommandEnvelopes checks Command's envelope and exit code: success,
// the caller's errors (2) and the file system's (3), and what each prints.
func TestCommandEnvelopes(t *testing.T) {
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	planDir := filepath.Join(dir, "plan")
	cases := []struct {
		name     string
		planDir  string
		args     []string
		wantCode int
		wantType string // "" for success
	}{
		{"write-approach", planDir, []string{"write-approach", "fe", "1", "--description", "d"}, 0, ""},
		{"get-findings", planDir, []string{"get-findings"}, 0, ""},
		{"get-finding-approach", planDir, []string{"get-finding-approach", "fe", "1"}, 0, ""},
		{"bad specialist", planDir, []string{"write-approach", "../fe", "1"}, CodeInput, ErrInvalidSpecialist},
		{"extra argument", planDir, []string{"get-findings", "extra"}, CodeInput, ErrInvalidArguments},
		{"unknown command", planDir, []string{"write-nothing"}, CodeInput, ErrInvalidArguments},
		{"no command", planDir, nil, CodeInput, ErrInvalidArguments},
		{"variant twice", planDir, []string{"clear-approach", "fe", "1_A", "B"}, CodeInput, ErrInvalidArguments},
		{"refine without text", planDir, []string{"refine", "fe", "1"}, CodeInput, ErrInvalidArguments},
		{"plan root is a file", aFile, []string{"write-approach", "fe", "1"}, CodeSystem, ErrIO},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCommand(t, c.planDir, c.args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.wantCode, stdout, stderr)
			}
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
				Error  *EnvelopeError  `json:"error"`
			}
			if err := json.Unmarshal([]byte(stdout), &env); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
			}
			switch {
			case c.wantType == "" && (env.Status != "success" || env.Data == nil || env.Error != nil):
				t.Errorf("want a success envelope, got %s", stdout)
			case c.wantType != "" && (env.Status != "error" || env.Error == nil || env.Error.Type != c.wantType || env.Data != nil):
				t.Errorf("want an error envelope of type %s, got %s", c.wantType, stdout)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if c.wantType != "" && !strings.HasPrefix(lines[len(lines)-1], "plan") {
				t.Errorf("the error line should name plan: %q", stderr)
			}
		})
	}
	// What write-approach wrote, get-finding-approach reads.
	stdout, _, _ := runCommand(t, planDir, "get-finding-approach", "fe", "1")
	if !strings.Contains(stdout, `"description": "d"`) {
		t.Errorf("get-finding-approach after write-approach: %s", stdout)
	}
}

// TestCommandHelp: --help prints the usage on stdout and succeeds, writing
// nothing.
func TestCommandHelp(t *testing.T) {
	planDir := filepath.Join(t.TempDir(), "plan")
	for _, args := range [][]string{{"--help"}, {"refine", "--help"}, {"write-approach", "-h"}} {
		stdout, stderr, code := runCommand(t, planDir, args...)
		if code != 0 || !strings.HasPrefix(stdout, "Usage: fluxwatch plan") || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(planDir); !os.IsNotExist(err) {
		t.Errorf("help created the plan root: %v", err)
	}
}

// The error line names the command once. Before, a usage error read
// "plan write-approach: plan write-approach: unknown flag".
func TestCommandErrorNamesCommandOnce(t *testing.T) {
	for _, args := range [][]string{
		{"write-approach", "fe", "1", "--bogus"},
		{"write-approach", "fe", "1", "--context-file", filepath.Join(t.TempDir(), "missing")},
		{"get-findings", "extra"},
	} {
		_, stderr, code := runCommand(t, t.TempDir(), args...)
		if code != CodeInput || strings.Count(stderr, "\n") != 1 || strings.Count(stderr, "plan "+args[0]+":") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming the command once", args, code, stderr)
		}
	}
}

// A signal before the change: nothing printed, nothing written, ctx's
// error returned (main exits with the signal's status).
func TestCommandCancelled(t *testing.T) {
	planDir := filepath.Join(t.TempDir(), "plan")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := Command(ctx, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }},
		[]string{"--plan-dir", planDir, "write-approach", "fe", "1"})
	if !errors.Is(err, context.Canceled) || out.Len() != 0 {
		t.Errorf("cancelled: err %v, printed %q", err, &out)
	}
	if _, err := os.ReadFile(filepath.Join(planDir, "findings", "fe.yaml")); err == nil {
		t.Error("a cancelled write-approach wrote the findings file")
	}
}
