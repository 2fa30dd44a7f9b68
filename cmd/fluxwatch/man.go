package main

import (
	_ "embed"
	"os"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/buildinfo"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manUsage is the help of the man command.
//
//go:embed help/man.txt
var manUsage string

func manCmd(e *env) *cobra.Command {
	cmd := newCommand("man", "write man pages for fluxwatch and every command into a directory", manUsage)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usageErrorf("man: want one directory")
		}
		dir := args[0]
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return usageErrorf("man: %v", err)
		}
		date := buildinfo.Date(e.getenv)
		header := &doc.GenManHeader{Source: "fluxwatch " + versionString(), Manual: "fluxwatch manual", Date: &date}
		root := cmd.Root()
		root.DisableAutoGenTag = true
		manText(root)
		if err := doc.GenManTree(root, header, dir); err != nil {
			return usageErrorf("man: %v", err)
		}
		e.logger().Info("man pages written", "dir", dir)
		return nil
	}
	return cmd
}

// manText leaves the closing "Flags:" line out of the help text of c and
// the commands below it: a man page lists the flags under OPTIONS.
func manText(c *cobra.Command) {
	c.Long = strings.TrimSuffix(strings.TrimSuffix(c.Long, "Flags:\n"), "\n")
	for _, sub := range c.Commands() {
		manText(sub)
	}
}
