package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanExitCodes checks the exit codes and the envelope of `fluxwatch plan`:
// 0 on success, 2 for the caller's errors, 3 when the file system fails.
func TestPlanExitCodes(t *testing.T) {
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	os.WriteFile(aFile, []byte("x"), 0o644)
	cases := []struct {
		name     string
		args     []string
		planDir  string
		wantCode int
		wantType string // "" for success
	}{
		{"success", []string{"plan", "write-approach", "fe", "1"}, filepath.Join(dir, "plan"), exitOK, ""},
		{"help", []string{"plan", "refine", "--help"}, "", exitOK, ""},
		{"caller's error", []string{"plan", "write-approach", "../fe", "1"}, filepath.Join(dir, "plan"), exitUsage, "invalid_specialist"},
		{"usage error", []string{"plan", "get-findings", "extra"}, filepath.Join(dir, "plan"), exitUsage, "invalid_arguments"},
		{"file system error", []string{"plan", "write-approach", "fe", "1"}, aFile, exitInternal, "io_error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			e := bareEnv(&stdout, &stderr)
			e.getenv = func(k string) string {
				if k == "FLUXWATCH_PLAN_DIR" {
					return c.planDir
				}
				return ""
			}
			code := exitCode(run(context.Background(), c.args, e), &stderr)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.wantCode, &stdout, &stderr)
			}
			if c.name == "help" {
				if !strings.HasPrefix(stdout.String(), "Usage: fluxwatch plan refine") {
					t.Errorf("help: %s", &stdout)
				}
				return
			}
			var env struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
				Error  *struct {
					Type, Message, Suggestion string
				} `json:"error"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &env); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, &stdout)
			}
			switch {
			case c.wantType == "" && (env.Status != "success" || env.Data == nil || env.Error != nil):
				t.Errorf("want a success envelope, got %s", &stdout)
			case c.wantType != "" && (env.Status != "error" || env.Error == nil || env.Error.Type != c.wantType || env.Data != nil):
				t.Errorf("want an error envelope of type %s, got %s", c.wantType, &stdout)
			}
			if c.wantType != "" && strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("stderr should be one line: %q", &stderr)
			}
		})
	}
}
