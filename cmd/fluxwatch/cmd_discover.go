package main

import (
	"context"
	"errors"
)

func runDiscover(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("discover: not implemented yet")}
}
