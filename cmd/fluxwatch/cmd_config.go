package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/internal/runjob"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// This file is the config command; what synth and watch take from
// .fluxwatch.yaml is runjob's.

const configUsage = `Usage: fluxwatch config [--config FILE] [--json] [DIR]

Prints the effective configuration of synth and watch for the run in DIR
(default: discovery tiers 1-2, $FLUX_OUTPUT_DIR or a recent feature
directory): the .fluxwatch.yaml found in the working directory or above it up
to the git top (or FILE), with the defaults filled in, as YAML (or JSON). A
.fluxwatch.yaml inside the run directory is never read (agents write it): a
warning names it. Flags given to synth or watch override the file. Exits 2
when the file is invalid, naming the file and line, or when one of its paths
leads outside its repository.

Flags:
`

func configCmd(e *env) *cobra.Command {
	cmd := newCommand("config", "print the effective configuration (.fluxwatch.yaml)", configUsage)
	fs := cmd.Flags()
	named := fs.String("config", "", "read the configuration `FILE`")
	asJSON := fs.Bool("json", false, "print JSON instead of YAML")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if fs.NArg() > 1 {
			return usageErrorf("config: want at most one directory, got %d arguments", fs.NArg())
		}
		run := fs.Arg(0)
		if run == "" {
			// Discovery only: the working directory is a run directory for
			// synth's sake only when it holds one.
			run, _, _ = plan.DiscoverDir(plan.Options{EnvDir: e.getenv("FLUX_OUTPUT_DIR")})
		}
		cfg, err := runjob.LoadConfig(e.getenv, e.stderr, "config", *named, run)
		if err != nil {
			return jobError(err)
		}
		for _, key := range config.PathKeys {
			if _, err := cfg.Local(key, cfg.Get(key)); err != nil {
				return usageErrorf("config: %v", err)
			}
		}
		eff := runjob.Effective(cfg)
		if *asJSON {
			out := struct {
				File string `json:"file"`
				config.Config
			}{cfg.Path, eff}
			data, err := json.MarshalIndent(out, "", "  ")
			if err != nil {
				return exitError{exitInternal, fmt.Errorf("config: %w", err)}
			}
			_, err = e.stdout.Write(append(data, '\n'))
			return err
		}
		from := cfg.Path
		if from == "" {
			from = "none found (defaults)"
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "# configuration file: %s\n", from)
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&eff); err != nil {
			return exitError{exitInternal, fmt.Errorf("config: %w", err)}
		}
		_, err = e.stdout.Write(b.Bytes())
		return err
	}
	return cmd
}
