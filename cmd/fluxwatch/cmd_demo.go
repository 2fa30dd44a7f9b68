package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/fluxwatch/fluxwatch/internal/demo"
	flag "github.com/spf13/pflag"
)

const demoUsage = `Usage: fluxwatch demo [flags] [DIR]

Writes an example review run into DIR (default fluxwatch-demo), which must be
empty or missing. Without flags it is a small realistic run: six agents
writing in different formats, a peer-findings bus, specialist findings.
With --agents (and --findings, --bus-lines, --seed) it generates a large run
deterministically, for benchmarks. Then try: fluxwatch synth DIR

Flags:
`

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, demoUsage)
		fs.PrintDefaults()
	}
	var cfg demo.Config
	fs.IntVar(&cfg.Agents, "agents", 0, "generate a run of `N` agents instead of the example")
	fs.IntVar(&cfg.Findings, "findings", 12, "findings per generated agent")
	fs.IntVar(&cfg.BusLines, "bus-lines", 1000, "lines of the generated bus")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generated run: the same seed writes the same files")
	// The live mode (--live: simulated agents writing over ~20 s) belongs to
	// the watch issue and is registered here when it lands.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageErrorf("demo: %v", err)
	}
	if fs.NArg() > 1 {
		return usageErrorf("demo: want at most one directory, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if dir == "" {
		dir = "fluxwatch-demo"
	}
	generated := fs.Changed("agents") || fs.Changed("findings") || fs.Changed("bus-lines") || fs.Changed("seed")
	var err error
	switch {
	case !generated:
		err = demo.Example(dir)
	case cfg.Agents < 1 || cfg.Findings < 0 || cfg.BusLines < 0:
		return usageErrorf("demo: --agents must be at least 1, --findings and --bus-lines at least 0")
	default:
		err = demo.Generate(dir, cfg)
	}
	if errors.Is(err, demo.ErrNotEmpty) {
		return usageErrorf("demo: %v", err)
	}
	if err != nil {
		return usageErrorf("demo: %v", err)
	}
	fmt.Fprintf(e.stdout, "wrote %s; now run: fluxwatch synth %s\n", dir, dir)
	return nil
}
