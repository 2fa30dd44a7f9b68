package main

import (
	"embed"
	"strings"
)

//go:embed help/examples
var exampleFiles embed.FS

// examples is the Examples section of each command's help (and man page),
// by command: help/examples/NAME.txt, indented by two spaces. A test
// checks that every command has one.
var examples = func() map[string]string {
	m := map[string]string{}
	files, _ := exampleFiles.ReadDir("help/examples")
	for _, f := range files {
		text, _ := exampleFiles.ReadFile("help/examples/" + f.Name())
		m[strings.TrimSuffix(f.Name(), ".txt")] = string(text)
	}
	return m
}()
