package main

import (
	_ "embed"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/spf13/cobra"
)

// synthUsage is the help of the synth command.
//
//go:embed help/synth.txt
var synthUsage string

func synthCmd(e *env) *cobra.Command {
	f := &reportFlags{cmd: "synth"}
	cmd, fs := f.newCommand("synthesise a run directory once and write its reports", synthUsage)
	json := fs.Bool("json", false, "also print findings.json on stdout")
	annotations := fs.Bool("annotations", false, "print GitHub Actions annotations even outside GitHub Actions")
	format := fs.String("format", "", "print the synthesis on stdout as `FORMAT`: "+strings.Join(report.FormatNames(), ", ")+
		" and write no summary.md or findings.json unless --out is given")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		o, err := f.options(e)
		if err != nil {
			return err
		}
		o.JSON, o.Annotations, o.Format = *json, *annotations, *format
		return jobError(runjob.Synth(cmd.Context(), o))
	}
	return cmd
}
