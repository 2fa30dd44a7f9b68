// Package config reads .fluxwatch.yaml, the checked-in configuration of
// fluxwatch: the gate, the output paths, the baseline, the suppressions of
// accepted findings, the evidence repository and the agents to expect.
//
// [Find] looks for the file from a directory up to the top of its git work
// tree (the caller finds the top; outside a work tree only the directory
// itself is looked in), never inside the run directory: agents write that,
// so a file there is passed over and named for a warning (SPEC §10).
// [Load] and [Parse] read it strictly: an unknown key, a value of the wrong
// kind, a YAML alias or a suppression without a reason is an error that
// names the file and line. Relative paths in the file are relative to the
// directory holding it ([Config.Resolve]), and every path must stay inside
// the repository the file belongs to ([Config.Local], links followed): no
// configuration sends an output or a read elsewhere. Command-line flags
// override what the file says; that merge is the command's.
//
// The file:
//
//	gate:
//	  fail-on: needs-changes      # none | needs-changes | risky
//	  fail-on-new: P1             # none | P0..P3: only new findings at or above
//	  allow-unreadable: false     # true: reports not fully read do not trip the gate
//	baseline: reviews/main/findings.json
//	output:
//	  out: review-out             # summary.md and findings.json
//	  sarif: fluxwatch.sarif
//	  rdjsonl: fluxwatch.rdjsonl
//	  junit: fluxwatch.xml
//	  html: review.html
//	evidence:
//	  repo: .                     # check evidence against this work tree
//	  check: true                 # false = --no-evidence
//	agents:
//	  include: ["fd-*"]           # only these are agents (globs of agent names)
//	  ignore: ["draft-*"]         # never agents, beside README, task, prompt*, ...
//	  expect: [fd-safety, fd-architecture]
//	  strict-run: false
//	  dedup: fuzzy                # fuzzy | exact
//	suppressions:
//	  - fingerprint: 23ee7a8151072506602eaaec6f45cd0e
//	    reason: tokens move to cookies in 2.1 (ticket AUTH-12)
//	    expires: 2026-12-31
//	  - match: {title: "rate limit", file: "api/**", severity: P2}
//	    reason: the gateway limits rates
//
// Package config reads files; it does no other I/O and reads no clock.
package config
