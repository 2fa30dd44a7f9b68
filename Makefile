# fluxwatch — developer and CI targets. `make help` lists them.
GO       ?= go
BIN      ?= bin/fluxwatch
FUZZTIME ?= 30s
EXAMPLE  ?= testdata/example

.PHONY: help build run test lint fuzz bench golden yaml-limits

help: ## list the targets
	@awk 'BEGIN{FS=":.*## "} /^[a-z-]+:.*## /{printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/fluxwatch
	$(GO) build -o $(BIN) ./cmd/fluxwatch

run: build ## run fluxwatch on the example run in testdata/example
	./$(BIN) check $(EXAMPLE)

test: lint ## gofmt and vet checks, then every test with -race
	$(GO) test -race -count=1 ./...

lint: ## fail on unformatted files or go vet findings
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fuzz: ## run every fuzz target for FUZZTIME each (default 30s)
	@set -e; grep -rl --include='*_test.go' '^func Fuzz' . | while read f; do \
	  pkg=$$(dirname $$f); \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "== $$pkg $$t"; $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

bench: ## run the Go benchmarks
	$(GO) test -run='^$$' -bench=. -benchmem ./...

golden: ## rewrite the expected parts of the golden files (review the diff!)
	$(GO) test ./parse/ -run 'Golden' -update
	$(GO) test ./cmd/fluxwatch/ -run 'TestScript' -update-scripts

yaml-limits: ## time and measure peak RSS of fluxwatch on an alias bomb, dense YAML and 1 GiB of random bytes
	$(GO) test -tags limits -count=1 -run TestYAMLLimitsProcess -v ./cmd/fluxwatch
