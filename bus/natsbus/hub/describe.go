package hub

import (
	"fmt"
	"time"
)

// Describe says the limits l for people, with maxStore the bound of all
// streams together (Hub.MaxStore): "records up to 1 MiB; 256 MiB and 30
// days a run; 37.5 GiB in all".
func (l Limits) Describe(maxStore int64) string {
	return fmt.Sprintf("records up to %s; %s and %v a run; %s in all", size(int64(l.MaxLine)), size(l.MaxBytes), age(l.MaxAge), size(maxStore))
}

// size is n bytes for people: 1 MiB, 37.5 GiB, 1.5 KiB, 500 bytes.
func size(n int64) string {
	for _, u := range []struct {
		unit  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		switch {
		case n >= 1<<u.shift && n%(1<<u.shift) == 0:
			return fmt.Sprintf("%d %s", n>>u.shift, u.unit)
		case n >= 1<<u.shift:
			return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<u.shift), u.unit)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// age is d for people: whole days as days.
func age(d time.Duration) string {
	if d >= 24*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
