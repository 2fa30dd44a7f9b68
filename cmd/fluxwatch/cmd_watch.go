package main

import (
	"context"
	"errors"
)

func runWatch(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("watch: not implemented yet")}
}
