//go:build !hub

package main

import (
	"github.com/spf13/cobra"
)

// busServeCmd is not in this binary: the embedded server would add ~14 MB
// to a binary most agents run only to write a finding. Its help still
// answers, and says how to get it.
func busServeCmd(e *env) *cobra.Command {
	const missing = "this fluxwatch was built without the embedded NATS server: build it with -tags hub (make build-hub), or run nats-server -js"
	cmd := newCommand("serve", "run a NATS JetStream hub (-tags hub)", busUsage+"\nNote: "+missing+".\n")
	cmd.DisableFlagParsing = true // its flags are the hub's, which this binary does not know
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if isHelp(args) {
			printHelp(cmd, nil)
			return nil
		}
		return usageErrorf("bus serve: %s", missing)
	}
	return cmd
}
