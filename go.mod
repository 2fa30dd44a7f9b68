module github.com/fluxwatch/fluxwatch

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/pflag v1.0.10
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.49.0
	golang.org/x/tools v0.52.0
)
