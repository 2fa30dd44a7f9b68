package parse_test

import (
	"fmt"

	"github.com/fluxwatch/fluxwatch/parse"
)

// Read one agent report: its status, the verdict its findings give, each
// finding, and the diagnostics about how it deviates from the strict
// Findings Index (here: none, it is the strict form).
func ExampleReadReport() {
	report := []byte(`### Findings Index
- P1 | AR-001 | "Authentication" | Session tokens stored in localStorage
- P2 | AR-002 | "API Design" | Missing rate limiting on /login
Verdict: needs-changes

## Issues Found

AR-001: the token is readable by any script on the page (web/session.js:42).
<!-- flux-drive:complete -->
`)
	r := parse.ReadReport(report)
	fmt.Println("status:", r.Status, "declared:", r.DeclaredVerdict, "verdict:", r.Verdict())
	for _, f := range r.Findings {
		fmt.Printf("%s %s %q line %d: %s\n", f.Severity, f.ID, f.Section, f.Line, f.Title)
	}
	for _, d := range parse.WithPath(r.Diagnostics, "fd-safety.md") {
		fmt.Println(d)
	}
	// Output:
	// status: valid declared: needs-changes verdict: needs-changes
	// P1 AR-001 "Authentication" line 2: Session tokens stored in localStorage
	// P2 AR-002 "API Design" line 3: Missing rate limiting on /login
}

// A report without a Findings Index is read by the prose fallback, with a
// diagnostic that says so; the findings it finds are of low confidence.
func ExampleReadReport_prose() {
	r := parse.ReadReportString(`# Review

## Findings

- [Critical] The password is logged in plain text (auth/login.go:88)

Verdict: risky
`)
	fmt.Println("status:", r.Status, "verdict:", r.Verdict())
	for _, f := range r.Findings {
		fmt.Printf("%s %s (%s confidence) %v\n", f.Severity, f.Title, f.Confidence, f.FileRefs)
	}
	for _, d := range parse.WithPath(r.Diagnostics, "review.md") {
		fmt.Println(d)
	}
	// Output:
	// status: malformed verdict: risky
	// P0 The password is logged in plain text (auth/login.go:88) (low confidence) [auth/login.go:88]
	// review.md: warning: malformed index: no usable Findings Index, prose fallback found 1 finding(s) (confidence low)
	// review.md: info: no <!-- flux-drive:complete --> sentinel
}
