package main

import (
	"context"
	"errors"
)

func runDemo(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("demo: not implemented yet")}
}
