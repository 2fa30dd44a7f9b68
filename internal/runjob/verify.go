package runjob

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/verify"
	"github.com/fluxwatch/fluxwatch/watcher"
)

// maxSynthesis bounds the synthesis and each agent report Verify reads.
const maxSynthesis = 64 << 20

// VerifyOptions are what `fluxwatch verify` is asked besides the run: the
// synthesis to check, and how to say the result.
type VerifyOptions struct {
	Synthesis string // the synthesis written by someone else (a file)
	JSON      bool   // print the result as JSON
	SARIF     string // also write the problems as SARIF here ("-": stdout)
}

// Verify is `fluxwatch verify`: it checks the synthesis v names against
// the run in o.Dir, synthesised as Synth would (without evidence), and
// prints the result. Wrong claims or missing blockers are an Error of
// StatusGate.
func Verify(ctx context.Context, o Options, v VerifyOptions) error {
	src, err := fsio.ReadFile(v.Synthesis, maxSynthesis)
	if err != nil {
		return inputf("verify: %v", err)
	}
	if _, err := fsio.StatDir(o.Dir); err != nil {
		return inputf("verify: %v", err)
	}
	opts, scan, err := Settings(o)
	if err != nil {
		return err
	}
	opts.EvidenceNote = "not checked by verify"
	s, err := watcher.Synthesize(ctx, o.Dir, scan, opts)
	if err != nil {
		if ctx.Err() != nil {
			return internal(fmt.Errorf("verify: %w", ctx.Err()))
		}
		return inputf("verify: %v", err)
	}
	if len(s.AgentsCompleted) == 0 {
		return inputf("verify: %s holds no completed agent report: nothing to verify against", o.Dir)
	}
	reports := map[string][]byte{}
	for _, a := range s.Agents {
		if a.File == nil || !a.Status.Completed() {
			continue
		}
		data, err := fsio.ReadFile(filepath.Join(o.Dir, *a.File), maxSynthesis)
		if err != nil {
			continue // changed since the scan: its findings are in s all the same
		}
		reports[a.Name] = data
	}
	r := verify.Check(verify.Input{Synthesis: src, Run: s, Reports: reports})
	sarif := StdoutTarget(v.SARIF)
	if sarif != "" {
		data, err := r.SARIF(v.Synthesis, o.Version)
		if err != nil {
			return internal(fmt.Errorf("verify: %w", err))
		}
		if sarif == "-" {
			_, err = o.Stdout.Write(data)
			if err := writeStdout("verify", err); err != nil {
				return err
			}
		} else if _, err := fsio.WriteFile(ctx, sarif, data, 0o644); err != nil {
			return inputf("verify: %v", err)
		}
	}
	switch {
	case v.JSON:
		_, err = o.Stdout.Write(r.JSON(v.Synthesis, o.Dir))
	case !o.Quiet && sarif != "-":
		_, err = o.Stdout.Write(r.Text(v.Synthesis))
	}
	if err := writeStdout("verify", err); err != nil {
		return err
	}
	if r.Ungrounded() {
		return &Error{Status: StatusGate}
	}
	return nil
}
