package hub

import (
	"testing"
	"time"
)

func TestDescribeLimits(t *testing.T) {
	for _, tc := range []struct {
		l        Limits
		maxStore int64
		want     string
	}{
		{Limits{MaxLine: 1 << 20, MaxBytes: DefaultMaxBytes, MaxAge: DefaultMaxAge}, 75 << 29,
			"records up to 1 MiB; 256 MiB and 30 days a run; 37.5 GiB in all"},
		{Limits{MaxLine: 500, MaxBytes: 1536, MaxAge: 90 * time.Minute}, 3 << 30,
			"records up to 500 bytes; 1.5 KiB and 1h30m0s a run; 3 GiB in all"},
	} {
		if got := tc.l.Describe(tc.maxStore); got != tc.want {
			t.Errorf("Describe(%+v, %d) = %q, want %q", tc.l, tc.maxStore, got, tc.want)
		}
	}
}
