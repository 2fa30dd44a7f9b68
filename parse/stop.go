package parse

import "context"

// stop ends a parse once its context is done, so that a signal ends a
// command within SPEC §7's second even while it reads a 16 MiB report. The
// long loops — index lines, prose lines, the prose dedup, description
// linking — tick it; a tick that finds the context done panics with
// stopped, and ReadReportContext recovers it. A nil *stop never stops.
type stop struct {
	ctx context.Context
	n   uint32
}

// stopped is the panic of a stop whose context ended.
type stopped struct{ err error }

// tick checks the context every 1024 calls.
func (s *stop) tick() {
	if s == nil {
		return
	}
	if s.n++; s.n%1024 == 0 {
		if err := s.ctx.Err(); err != nil {
			panic(stopped{err})
		}
	}
}
