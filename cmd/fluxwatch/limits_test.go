//go:build limits

package main

import (
	"bytes"
	"crypto/rand"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/cmdtest"
)

// TestYAMLLimitsProcess is `make yaml-limits`: it builds fluxwatch and runs
// `fluxwatch plan get-findings` over hostile specialist files, reporting the
// wall time and the peak RSS of each run. Bars (issue 2): a diagnostic within
// 5 s and under 200 MB peak RSS.
func TestYAMLLimitsProcess(t *testing.T) {
	bin := cmdtest.Build(t)
	var bomb strings.Builder
	bomb.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i, l := range "bcdefghij" {
		prev := string("abcdefghij"[i])
		bomb.WriteString(string(l) + ": &" + string(l) + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n")
	}
	var dense bytes.Buffer
	dense.WriteString("approaches: [")
	for dense.Len() < 1<<20-16 {
		dense.WriteString("1,")
	}
	dense.WriteString("1]\n")
	cases := []struct {
		name  string
		write func(path string) error
		want  string
	}{
		{"billion laughs", func(p string) error { return os.WriteFile(p, []byte(bomb.String()), 0o644) }, "alias bomb"},
		{"1 MiB of dense YAML", func(p string) error { return os.WriteFile(p, dense.Bytes(), 0o644) }, "malformed_yaml"},
		{"1 GiB of random bytes", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.CopyN(f, rand.Reader, 1<<30)
			return err
		}, "over the 1048576-byte limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, "findings"), 0o755)
			if err := c.write(filepath.Join(root, "findings", "x.yaml")); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "plan", "--plan-dir", root, "get-findings")
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			start := time.Now()
			err := cmd.Run()
			elapsed := time.Since(start)
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
			t.Logf("%s: exit %v, %v wall, %.1f MB peak RSS", c.name, err, elapsed.Round(time.Millisecond), float64(rss)/1024)
			if !strings.Contains(stdout.String(), c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, stdout.String())
			}
			if elapsed > 5*time.Second || rss > 200*1024 {
				t.Errorf("over the bar: %v, %d KiB", elapsed, rss)
			}
		})
	}
}
