package main

// examples is the Examples section of each command's help (and man page),
// indented by two spaces. A test checks that every command has one.
var examples = map[string]string{
	"check": `  fluxwatch check .claude/features/login/fd-safety.md
  fluxwatch check -q .claude/features/login
  fluxwatch check --evidence --repo . .claude/features/login
`,
	"synth": `  fluxwatch synth .claude/features/login
  fluxwatch synth --fail-on needs-changes --sarif review.sarif run
  fluxwatch synth --format sarif run > review.sarif
  fluxwatch synth --format github --fail-on risky run
  fluxwatch synth -q --junit junit.xml --rdjsonl review.rdjsonl run
  fluxwatch synth --bus nats://hub:4222/7c1e2f60 --nats-creds agent.creds --bus-timeout 10s run
`,
	"watch": `  fluxwatch watch .claude/features/login
  fluxwatch watch --until-complete --expect fd-safety,fd-quality run
  fluxwatch watch --events run | jq .
  FLUXWATCH_BUS=nats://hub:4222/7c1e2f60 fluxwatch watch --until-complete run
  fluxwatch watch --serve 127.0.0.1:0 run
`,
	"finding": `  fluxwatch finding write --bus run/peer-findings.jsonl --agent fd-safety \
      --severity blocking --category auth --summary "tokens in localStorage"
  fluxwatch finding read --bus run/peer-findings.jsonl
  fluxwatch finding read --follow --bus run/peer-findings.jsonl
`,
	"bus": `  fluxwatch bus relay run/peer-findings.jsonl nats://127.0.0.1:4222/7c1e2f60
  fluxwatch bus relay --once --direction to-stream run/peer-findings.jsonl nats://hub:4222/7c1e2f60
  fluxwatch bus serve --store /var/lib/fluxwatch --listen 127.0.0.1:4222
`,
	"protocol": `  fluxwatch protocol --bus run/peer-findings.jsonl --agent fd-safety
`,
	"mcp": `  fluxwatch mcp --root .claude/features
`,
	"plan": `  fluxwatch plan get-findings
  fluxwatch plan --plan-dir .claude/plans/main read-design-manifest
`,
	"discover": `  fluxwatch discover
  fluxwatch discover --task "review the login flow" --create
`,
	"schema": `  fluxwatch schema > findings.schema.json
`,
	"demo": `  fluxwatch demo && fluxwatch synth fluxwatch-demo
  fluxwatch demo --live /tmp/run
  fluxwatch demo --agents 1000 --seed 7 /tmp/big
`,
	"verify": `  fluxwatch verify synthesis.md run
  fluxwatch verify --json synthesis.md run
`,
	"version": `  fluxwatch version
  fluxwatch --version
`,
	"help": `  fluxwatch help
  fluxwatch help synth
`,
	"completion": `  source <(fluxwatch completion bash)
  fluxwatch completion zsh > "${fpath[1]}/_fluxwatch"
  fluxwatch completion fish > ~/.config/fish/completions/fluxwatch.fish
  fluxwatch completion powershell >> $PROFILE
`,
	"man": `  fluxwatch man /usr/local/share/man/man1
  make man && man -l bin/man/fluxwatch-synth.1
`,
	"config": `  fluxwatch config
  fluxwatch config --config .fluxwatch.yaml
  fluxwatch config reviews/run   # as synth reviews/run sees it: a file inside the run is ignored
`,
}
