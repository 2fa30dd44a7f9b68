//go:build !hub

package main

import (
	"context"
	"errors"
	"fmt"
)

// busServe is not in this binary: the embedded server would add ~14 MB
// to a binary most agents run only to write a finding.
func busServe(ctx context.Context, e *env, args []string) error {
	return fmt.Errorf("bus serve: %w", errors.New("this fluxwatch was built without the embedded NATS server: build it with -tags hub (make build-hub), or run nats-server -js"))
}
