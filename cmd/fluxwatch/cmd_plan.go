package main

import (
	"context"
	"errors"
)

func runPlan(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("plan: not implemented yet")}
}
