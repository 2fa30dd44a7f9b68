package main

import (
	"context"
	"errors"
)

func runMCP(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("mcp: not implemented yet")}
}
