package main

import (
	"context"
	"errors"
)

func runProtocol(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("protocol: not implemented yet")}
}
