# fluxwatch — developer and CI targets. `make help` lists them.
GO       ?= go
BIN      ?= bin/fluxwatch
FUZZTIME ?= 30s
EXAMPLE  ?= testdata/example

# VERSION is stamped into the binary (fluxwatch version): it names the git
# revision even where GOFLAGS=-buildvcs=false turns Go's own stamping off.
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null)
LDFLAGS  ?= -X main.version=$(VERSION)

STRESS_PROCS   ?= 32
STRESS_SHELL   ?= 8
STRESS_RECORDS ?= 5000
STORM_LAUNCHES ?= 5000
STORM_PARALLEL ?= 16
STORM_KILL     ?= 10ms
HUB_LAUNCHES   ?= 4000
HUB_RESTARTS   ?= 4

.PHONY: help build build-hub man run test cross lint fuzz bench bench-tools bench-synth bench-evidence bench-watch bench-watch-8000 churn tmux golden yaml-limits tools stress bigline browser-tools screenshot release-tools release-check release-dry release release-notes

# The release tools, pinned, installed from the Go module proxy into
# bin/tools/NAME-VERSION by `make release-tools` when missing: goreleaser
# builds the archives, checksums and image; syft writes the SBOMs.
GORELEASER_VERSION ?= v2.15.1
SYFT_VERSION       ?= v1.57.1
TOOLS              := $(abspath bin/tools)
GORELEASER         := $(TOOLS)/goreleaser-$(GORELEASER_VERSION)/goreleaser
SYFT               := $(TOOLS)/syft-$(SYFT_VERSION)/syft

help: ## list the targets
	@awk 'BEGIN{FS=":.*## "} /^[a-z-]+:.*## /{printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/fluxwatch, stamped with git describe
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/fluxwatch

man: build ## write the man pages into bin/man (man -l bin/man/fluxwatch.1)
	./$(BIN) man bin/man

build-hub: ## build bin/fluxwatch with the embedded NATS server of `bus serve` (-tags hub; ~14 MB more)
	$(GO) build -tags hub -o $(BIN) ./cmd/fluxwatch

.PHONY: install
install: ## go install fluxwatch into GOBIN (else GOPATH/bin, usually ~/go/bin): put it on PATH
	$(GO) install -ldflags '$(LDFLAGS)' ./cmd/fluxwatch

run: build ## synthesise the example run in testdata/example and print its summary
	./$(BIN) synth --out bin/example --repo $(EXAMPLE)/repo $(EXAMPLE)
	@echo
	@cat bin/example/summary.md

test: lint tools cross browser-tools ## gofmt and vet checks, the cross builds, then every test with -race
	$(GO) test -race -count=1 -timeout 30m ./...
	$(GO) vet -tags hub ./cmd/fluxwatch
	$(GO) test -race -count=1 -tags hub -run '^TestBusServe' ./cmd/fluxwatch

cross: ## build for linux, darwin and windows (and vet for darwin): the tree must build on all three
	@set -e; for os in linux darwin windows; do echo "GOOS=$$os go build ./..."; GOOS=$$os $(GO) build ./...; done
	GOOS=darwin $(GO) vet ./...

lint: ## fail on unformatted files or go vet findings
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fuzz: ## run every fuzz target for FUZZTIME each (default 30s)
	@set -e; grep -rl --include='*_test.go' '^func Fuzz' . | while read f; do \
	  pkg=$$(dirname $$f); \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "== $$pkg $$t"; $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

BENCH_RUNS ?= 5
SCALE_RUNS ?= 3

bench: build bench-tools ## Go benchmarks of the hot paths, fluxwatch against jq, cat, wc -l and a shell pipeline, then the 1×–8× scale table (a few minutes)
	$(GO) test -short -run='^$$' -bench=. -benchmem ./parse ./bus ./synth ./watcher
	$(GO) run ./internal/procbench -bin $(BIN) -shell scripts/shell-synth.sh -runs $(BENCH_RUNS) -scale full -scale-runs $(SCALE_RUNS)
	$(GO) test -run='^$$' -bench=Render -benchmem ./page
	$(GO) test -run='^$$' -bench=. -benchtime=2000x ./bus/natsbus

bench-tools: ## install jq (Debian) when missing, for make bench's comparisons
	@command -v jq >/dev/null 2>&1 || { echo "installing jq"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq; }

bench-synth: ## time the whole synth process on generated runs (median of 5, peak RSS)
	FLUXWATCH_BENCH=1 $(GO) test ./cmd/fluxwatch -run WholeProcessSynth -count=1 -v -timeout 30m

bench-evidence: ## time verifying 5,000 evidence claims across 500 files on disk (BenchmarkCheck, 5 runs)
	$(GO) test ./evidence -run '^$$' -bench Check -benchmem -count 5

bench-watch: ## watch latency on a 1k- and a 1M-line bus (p50/p99), and the CPU cost of one append and one completion (1k vs 1M)
	FLUXWATCH_BENCH=1 $(GO) test ./cmd/fluxwatch -run '^TestWatchLatency$$' -count=1 -v -timeout 30m
	$(GO) test ./watcher -run '^$$' -bench '^BenchmarkAppend$$' -benchtime 300x -count 3 -timeout 30m
	$(GO) test ./watcher -run '^$$' -bench '^BenchmarkComplete$$' -benchtime 40x -count 3 -timeout 30m

bench-watch-8000: ## watch latency on 8,000 agents × 50 findings with a 1k-line bus (issue 29; slow: findings.json is ~380 MB)
	FLUXWATCH_BENCH=1 WATCH_BENCH_AGENTS=8000 WATCH_BENCH_FINDINGS=50 WATCH_BENCH_LINES=1000 WATCH_BENCH_APPENDS=20 WATCH_BENCH_RENAMES=5 \
	  $(GO) test ./cmd/fluxwatch -run '^TestWatchLatency$$' -count=1 -v -timeout 60m

.PHONY: signals
signals: build ## time from SIGTERM/SIGINT to exit for every command, on the real bin/fluxwatch (a table)
	$(GO) test ./cmd/fluxwatch -run '^TestSignals$$' -count=1 -v -args -signals.bin=$(abspath $(BIN))

churn: ## the watch churn test for 30 s (SPEC §9) instead of the 10 s of make test
	$(GO) test -race ./cmd/fluxwatch -run '^TestWatchChurn$$' -count=1 -v -args -churn 30s

tmux: ## install tmux (Debian) when missing, to try watch beside demo --live in split panes
	@command -v tmux >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }

golden: ## rewrite the expected parts of the golden files (review the diff!)
	$(GO) test ./parse/ -run 'Golden' -update
	$(GO) test ./bus/ -run 'Golden' -update
	$(GO) test ./synth/ -run 'Golden' -update
	$(GO) test ./evidence/ -run 'Golden' -update
	$(GO) test ./cmd/fluxwatch/ -run 'TestScript' -update-scripts
	$(GO) test ./internal/termview/ -run 'TestLiveView' -update-view
	$(GO) test ./page/ -run 'Golden' -update

.PHONY: convergence
convergence: ## merge precision and recall of dedup against hand-labelled clusters of corpus runs (needs ../shared)
	$(GO) test ./synth -run '^TestConvergenceLabels$$' -count=1 -v

.PHONY: baseline-stability
baseline-stability: ## how many findings of a re-formatted rerun of every corpus run match as unchanged (needs ../shared)
	$(GO) test ./cmd/fluxwatch -run '^TestCorpusBaselineStability$$' -count=1 -v -args -baseline.all

yaml-limits: ## time and measure peak RSS of fluxwatch on an alias bomb, dense YAML and 1 GiB of random bytes
	$(GO) test -tags limits -count=1 -run TestYAMLLimitsProcess -v ./cmd/fluxwatch

browser-tools: ## install Chromium (Debian) when missing, for the browser tests of the HTML page
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  command -v google-chrome >/dev/null 2>&1 || [ -n "$$FLUXWATCH_CHROMIUM" ] || { echo "installing chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }

screenshot: browser-tools ## write docs/screenshot.png: the example run's page in headless Chromium
	@mkdir -p docs
	$(GO) test ./page -run '^TestScreenshot$$' -count=1 -args -screenshot=$(abspath docs/screenshot.png)

release-tools: $(GORELEASER) $(SYFT) ## install goreleaser and syft at their pinned versions into bin/tools (when missing)

$(GORELEASER):
	GOBIN=$(dir $@) GOFLAGS=-buildvcs=false $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

$(SYFT):
	GOBIN=$(dir $@) GOFLAGS=-buildvcs=false $(GO) install github.com/anchore/syft/cmd/syft@$(SYFT_VERSION)

release-check: $(GORELEASER) ## check .goreleaser.yaml (goreleaser check)
	$(GORELEASER) check

release: release-tools ## publish the release of the tag at HEAD (CI: .github/workflows/release.yml; needs GITHUB_TOKEN, a Docker engine)
	PATH="$(dir $(SYFT)):$$PATH" $(GORELEASER) release --clean $(if $(RELEASE_NOTES),--release-notes=$(RELEASE_NOTES)) $(RELEASE_FLAGS)

release-notes: ## print the CHANGELOG.md section of VERSION (a tag, v1.2.3): the notes of its release
	@awk -v v="$(VERSION:v%=%)" 'index($$0, "## [" v "]") == 1 {p = 1; next} /^## \[/ {p = 0} p' CHANGELOG.md

release-dry: release-tools ## build the release locally into dist/: archives, checksums, SBOMs, and the image where a Docker engine runs
	@skip=; if ! docker info >/dev/null 2>&1; then \
	  echo "release-dry: no Docker engine here (docker info fails): the container image is left out"; skip=--skip=docker; fi; \
	set -x; FLUXWATCH_VERSION=$(VERSION) PATH="$(dir $(SYFT)):$$PATH" $(GORELEASER) release --snapshot --clean $$skip $(RELEASE_FLAGS)

tools: ## install the system tools the tests use when missing (flock from util-linux)
	@command -v flock >/dev/null 2>&1 || { echo "installing util-linux for flock(1)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq util-linux; }

stress: tools build ## bus stress: STRESS_PROCS writers x STRESS_RECORDS records, then a kill storm of STORM_LAUNCHES writers
	$(GO) test -run '^TestStress$$' -count=1 -v -timeout 0 ./internal/busstress -args \
	  -stress.bin=$(abspath $(BIN)) -stress.procs=$(STRESS_PROCS) -stress.shell=$(STRESS_SHELL) -stress.records=$(STRESS_RECORDS)
	$(GO) test -run '^TestKillStorm$$' -count=1 -v -timeout 0 ./internal/busstress -args \
	  -stress.bin=$(abspath $(BIN)) -storm.launches=$(STORM_LAUNCHES) -storm.parallel=$(STORM_PARALLEL) -storm.kill-every=$(STORM_KILL)
	$(GO) test -run '^TestHubStorm$$' -count=1 -v -timeout 0 ./internal/busstress -args \
	  -stress.bin=$(abspath $(BIN)) -hub.launches=$(HUB_LAUNCHES) -hub.restarts=$(HUB_RESTARTS)

bigline: build ## read a bus holding one 200 MB line: prints the diagnostic, time and peak RSS
	@command -v /usr/bin/time >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time; }
	@d=$$(mktemp -d); f=$$d/peer-findings.jsonl; \
	{ printf '{"severity":"notable","agent":"fd-a","summary":"'; head -c 200000000 /dev/zero | tr '\0' x; \
	  printf '"}\n{"severity":"blocking","agent":"fd-b","category":"c","summary":"after the long line","file_refs":[]}\n'; } > $$f; \
	/usr/bin/time -f 'bigline: %e s elapsed, %M KiB peak RSS' ./$(BIN) finding read --bus $$f; \
	rc=$$?; rm -rf $$d; exit $$rc
