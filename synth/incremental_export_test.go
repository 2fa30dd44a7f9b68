package synth

// Merges returns how many times l merged the findings, for the tests of
// package synth_test.
func (l *Live) Merges() int { return l.merges }
