//go:build !hub

package main

import (
	"context"
	"fmt"
)

// busServe is not in this binary: the embedded server would add ~14 MB
// to a binary most agents run only to write a finding. Its help still
// answers, and says how to get it.
func busServe(ctx context.Context, e *env, args []string) error {
	const missing = "this fluxwatch was built without the embedded NATS server: build it with -tags hub (make build-hub), or run nats-server -js"
	if isHelp(args) {
		fmt.Fprint(e.stdout, busUsage)
		fmt.Fprintf(e.stdout, "\nNote: %s.\n", missing)
		return nil
	}
	return usageErrorf("bus serve: %s", missing)
}
