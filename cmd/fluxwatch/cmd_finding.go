package main

import (
	"context"
	"errors"
)

func runFinding(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("finding: not implemented yet")}
}
