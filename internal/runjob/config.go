package runjob

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/config"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/report"
	"go.yaml.in/yaml/v3"
)

// LoadConfig reads named (--config), or the .fluxwatch.yaml that applies in
// the working directory: the zero Config when there is none. run is the run
// directory ("" for none): a file found in it is never read (SPEC §10:
// agents write it), and each one passed over is a warning on stderr. The
// configuration's Root is the repository it belongs to: the git work tree
// holding it, else its directory. Its errors are input errors naming cmd.
func LoadConfig(getenv func(string) string, stderr io.Writer, cmd, named, run string) (*config.Config, error) {
	path := named
	wd, err := os.Getwd()
	if err != nil {
		return nil, inputf("%s: %v", cmd, err)
	}
	ceiling := Env{Getenv: getenv}.getenv("GIT_CEILING_DIRECTORIES")
	shown := func(p string) string {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsAbs(p) {
			return rel // messages and reports name it as the user sees it
		}
		return p
	}
	if path == "" {
		top, _ := plan.GitTop(wd, ceiling)
		found, ignored, err := config.Find(wd, top, run)
		for _, p := range ignored {
			fmt.Fprintf(stderr, "fluxwatch: warning: %s: %s is in the run directory, which agents write: ignored (name a configuration with --config)\n", cmd, shown(p))
		}
		if err != nil {
			return nil, inputf("%s: config: %v", cmd, err)
		}
		if found == "" {
			return &config.Config{}, nil
		}
		path = shown(found)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, inputf("%s: %v", cmd, err)
	}
	dir := filepath.Dir(path)
	cfg.Root = dir
	if top, ok := plan.GitTop(dir, ceiling); ok {
		cfg.Root = top
	}
	if abs, err := filepath.Abs(cfg.Root); err == nil {
		cfg.Root = abs // messages name it whole: "leads outside ." says nothing
	}
	return cfg, nil
}

// ShowConfig is `fluxwatch config`: it prints the effective configuration
// for the run in run (""; discovery tiers 1-2 only, as the working
// directory is a run directory only when it holds one) as YAML, or JSON
// with asJSON: the file named (or found), with every default filled in. A
// path of the file that leads outside its repository is an input error.
func ShowConfig(e Env, named, run string, asJSON bool) error {
	if run == "" {
		run, _, _ = plan.DiscoverDir(plan.Options{EnvDir: e.getenv("FLUX_OUTPUT_DIR")})
	}
	cfg, err := LoadConfig(e.Getenv, e.Stderr, "config", named, run)
	if err != nil {
		return err
	}
	for _, key := range config.PathKeys {
		if _, err := cfg.Local(key, cfg.Get(key)); err != nil {
			return inputf("config: %v", err)
		}
	}
	eff := effective(cfg)
	var b bytes.Buffer
	if asJSON {
		out := struct {
			File string `json:"file"`
			config.Config
		}{cfg.Path, eff}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return internal(fmt.Errorf("config: %w", err))
		}
		b.Write(append(data, '\n'))
	} else {
		fmt.Fprintf(&b, "# configuration file: %s\n", or(cfg.Path, "none found (defaults)"))
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&eff); err != nil {
			return internal(fmt.Errorf("config: %w", err))
		}
	}
	_, err = e.Stdout.Write(b.Bytes())
	return err
}

// effective is cfg with the defaults of every setting filled in: what
// synth and watch use when no flag overrides it (fluxwatch config).
func effective(cfg *config.Config) config.Config {
	eff := *cfg
	eff.Gate.FailOn = or(eff.Gate.FailOn, "none")
	eff.Gate.FailOnNew = or(eff.Gate.FailOnNew, "none")
	eff.Agents.Dedup = or(eff.Agents.Dedup, "fuzzy")
	on, off := true, false
	eff.Evidence.Check = cmp.Or(eff.Evidence.Check, &on)
	eff.Agents.StrictRun = cmp.Or(eff.Agents.StrictRun, &off)
	eff.Gate.AllowUnreadable = cmp.Or(eff.Gate.AllowUnreadable, &off)
	if eff.Suppressions == nil {
		eff.Suppressions = []config.Suppression{}
	}
	return eff
}

// merge gives every option of o whose flag was not given the value of cfg
// (a flag always wins). A path the file gives must stay in its repository
// (config.Config.Local).
func (o *Options) merge(cfg *config.Config) error {
	var bad error
	set := func(name string, dst *string, v string, key string) {
		if v == "" || o.given(name) || *dst == "-" { // "-": --format set it, a flag
			return
		}
		if key != "" {
			local, err := cfg.Local(key, v)
			if err != nil {
				bad = cmp.Or(bad, err)
				return
			}
			v = local
		}
		*dst = v
	}
	set("fail-on", &o.FailOn, cfg.Gate.FailOn, "")
	set("fail-on-new", &o.FailOnNew, cfg.Gate.FailOnNew, "")
	set("baseline", &o.Baseline, cfg.Baseline, "baseline")
	set("out", &o.Out, cfg.Output.Out, "output.out")
	files := map[string]string{}
	for _, rf := range report.FileFormats() {
		v := o.Files[rf.Name]
		set(rf.Flag, &v, cfg.Output.Files[rf.Config], "output."+rf.Config)
		if v != "" {
			files[rf.Name] = v
		}
	}
	o.Files = files
	set("dedup", &o.Dedup, cfg.Agents.Dedup, "")
	if !o.given("repo") && !o.given("no-evidence") {
		set("repo", &o.Repo, cfg.Evidence.Repo, "evidence.repo")
		if cfg.Evidence.Check != nil && !*cfg.Evidence.Check {
			o.NoEvidence, o.Repo = true, ""
		}
	}
	if !o.given("expect") && len(cfg.Agents.Expect) > 0 {
		o.Expect = cfg.Agents.Expect
	}
	if !o.given("strict-run") && cfg.Agents.StrictRun != nil {
		o.StrictRun = *cfg.Agents.StrictRun
	}
	if !o.given("allow-unreadable") && cfg.Gate.AllowUnreadable != nil {
		o.AllowUnreadable = *cfg.Gate.AllowUnreadable
	}
	if bad != nil {
		return inputf("%s: %v", o.Command, bad)
	}
	if err := config.CheckChoice("gate.fail-on-new", o.value("fail-on-new", o.FailOnNew, "none")); err != nil {
		return inputf("%s: --fail-on-new %q: %v", o.Command, o.FailOnNew, err)
	}
	if or(o.FailOnNew, "none") != "none" && o.Baseline == "" {
		return inputf("%s: --fail-on-new needs a baseline: --baseline FILE or baseline: in %s", o.Command, config.Name)
	}
	return nil
}
