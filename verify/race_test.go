//go:build race

package verify

// raceEnabled: the race detector is on, and timed tests allow for it.
const raceEnabled = true
