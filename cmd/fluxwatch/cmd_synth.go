package main

import (
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/report"
	"github.com/spf13/cobra"
)

const synthUsage = `Usage: fluxwatch synth [flags] [DIR]

Reads the review run in DIR (default: discovery tiers 1-2, that is
$FLUX_OUTPUT_DIR or a recent .claude/features directory, else the current
directory), writes summary.md and findings.json into DIR (or --out) and exits
by the verdict gate: 0 ok, 1 the --fail-on gate tripped, 2 a usage or input
error, 3 an internal error. A report that could not be fully read trips any
gate (--fail-on, --fail-on-new) unless --allow-unreadable; with no gate, a
warning on stderr says that nothing trips on it.

Without DIR, the current directory must hold something of a run: an agent
report with a Findings Index or verdict (or a run-scoped one), a .partial or
abort marker, a bus (findings.jsonl, peer-findings.jsonl), or findings/*.yaml
or design/manifest.yaml. Otherwise synth exits 2 naming what it looked for
and writes nothing. A DIR named explicitly is always a run (an empty one has
no agents: verdict error).

With --bus nats://HOST:PORT/RUN (or such a $FLUXWATCH_BUS) the peer findings
come from the run's JetStream stream, read up to its last record when synth
starts; the reports still come from DIR. The stream is the run's bus: bus
files in DIR are then not read (a warning names them), and the reports name
it peer-findings.jsonl, so they are byte for byte those of a run whose
peer-findings.jsonl holds the same records. --bus FILE reads that bus file
instead of DIR's. A server that cannot be reached is an error (exit 2)
within --bus-timeout.

--format F prints one rendering on stdout and writes nothing else, unlike
--json, which also writes the reports: summary.md and findings.json go where
--out (or output.out in .fluxwatch.yaml) says, and files named by --sarif,
--rdjsonl, --junit or --html are written as usual.

Every report target takes "-" for standard output (--out -: summary.md; at
most one thing on stdout). An existing target that is a device or FIFO is
written in place, a symbolic link keeps being a link.

Flags:
`

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
