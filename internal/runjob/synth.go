package runjob

import (
	"context"

	"github.com/fluxwatch/fluxwatch/synth"
)

// Synth is `fluxwatch synth`: it reads the run once, writes its reports
// and prints findings.json (--json) or the one-line summary on stdout
// (unless quiet or stdout carries a report), then judges the gate.
func Synth(ctx context.Context, o Options) error {
	j, err := Load(ctx, o)
	if err != nil {
		return err
	}
	defer j.Close()
	s, err := j.Synthesize(ctx)
	if err != nil {
		return err
	}
	if err := j.Write(ctx, s); err != nil {
		return err
	}
	switch {
	case j.o.JSON:
		err = writeStdout(j.o.Command, synth.WriteJSON(j.o.Stdout, s))
	case !j.o.Quiet && !j.onStdout:
		err = j.printSummary(s)
	}
	if err != nil {
		return err
	}
	return j.Explain(ctx, j.Judge(s))
}
