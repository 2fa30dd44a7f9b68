module github.com/fluxwatch/fluxwatch

go 1.26.0

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.49.0
)

require golang.org/x/tools v0.52.0 // indirect
