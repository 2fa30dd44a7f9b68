package main

import (
	_ "embed"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	"github.com/spf13/cobra"
)

// demoUsage is the help of the demo command.
//
//go:embed help/demo.txt
var demoUsage string

func demoCmd(e *env) *cobra.Command {
	cmd := newCommand("demo", "write an example run directory", demoUsage)
	fs := cmd.Flags()
	var cfg demo.Config
	fs.IntVar(&cfg.Agents, "agents", 0, "generate a run of `N` agents instead of the example")
	fs.IntVar(&cfg.Findings, "findings", 12, "findings per generated agent")
	fs.IntVar(&cfg.BusLines, "bus-lines", 1000, "lines of the generated bus")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generated run: the same seed writes the same files")
	live := fs.Bool("live", false, "simulate agents writing the example run over about 20 s")
	speed := fs.Float64("speed", 1, "with --live: run `F` times faster")
	quiet := fs.BoolP("quiet", "q", false, "print nothing but errors")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if *quiet {
			// All demo prints on stdout is what it did and what to run next.
			q := *e
			q.stdout = io.Discard
			e = &q
		}
		if fs.NArg() > 1 {
			return usageErrorf("demo: want at most one directory, got %d arguments", fs.NArg())
		}
		dir := fs.Arg(0)
		if dir == "" {
			dir = "fluxwatch-demo"
		}
		generated := fs.Changed("agents") || fs.Changed("findings") || fs.Changed("bus-lines") || fs.Changed("seed")
		switch {
		case *live && generated:
			return usageErrorf("demo: --live simulates the example run: leave out --agents, --findings, --bus-lines and --seed")
		case *live:
			if err := demo.RunLive(ctx, e.stdout, dir, *speed); err != nil {
				return usageErrorf("demo: %v", err)
			}
			return nil
		}
		if fs.Changed("speed") {
			return usageErrorf("demo: --speed goes with --live")
		}
		var err error
		switch {
		case !generated:
			err = demo.Example(dir)
		case cfg.Agents < 1 || cfg.Findings < 0 || cfg.BusLines < 0:
			return usageErrorf("demo: --agents must be at least 1, --findings and --bus-lines at least 0")
		default:
			err = demo.Generate(dir, cfg)
		}
		if err != nil {
			return usageErrorf("demo: %v", err)
		}
		if generated {
			fmt.Fprintf(e.stdout, "wrote %s; now run: fluxwatch synth %s\n", dir, dir)
		} else {
			// The example ships the sources its agents reviewed in DIR/repo (not
			// part of the run), so that their evidence can be checked.
			fmt.Fprintf(e.stdout, "wrote %s; now run: fluxwatch synth --repo %s %s\n", dir, filepath.Join(dir, "repo"), dir)
		}
		return nil
	}
	return cmd
}
