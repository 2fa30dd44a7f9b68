package main

import (
	"context"
	"errors"
)

func runSchema(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("schema: not implemented yet")}
}
