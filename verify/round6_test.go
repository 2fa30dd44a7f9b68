package verify

import "testing"

// TestGoldenKindsRound6 pins what the archives of issue 28's sixth round
// are about, as TestGoldenKinds does for the others, so that a -update
// that loses the point of a fixture fails.
func TestGoldenKindsRound6(t *testing.T) {
	for _, tc := range []struct {
		archive    string
		kind       Kind
		ungrounded bool
	}{
		{"topicwords", MissingBlocker, true},
		{"fixcited", MissingBlocker, true},
		{"rosterline", MissingBlocker, true},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			r := resultOf(t, tc.archive)
			if got := r.Ungrounded(); got != tc.ungrounded {
				t.Errorf("Ungrounded() = %v, want %v\n%s", got, tc.ungrounded, r.Text("synthesis.md"))
			}
			for _, k := range Kinds {
				if n := r.Tally[k]; (k == tc.kind) != (n > 0) {
					t.Errorf("%d %s problems, want them only of kind %s:\n%s", n, k, tc.kind, r.Text("synthesis.md"))
				}
			}
		})
	}
}
