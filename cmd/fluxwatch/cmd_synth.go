package main

import (
	"context"
	"errors"
)

func runSynth(ctx context.Context, e *env, args []string) error {
	return exitError{exitInternal, errors.New("synth: not implemented yet")}
}
