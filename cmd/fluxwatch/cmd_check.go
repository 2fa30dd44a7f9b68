package main

import (
	"context"
	"errors"
)

func runCheck(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("check: not implemented yet")}
}
