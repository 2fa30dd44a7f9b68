package synth

import "strings"

// mdBaseline writes "New since baseline": the baseline compared with, the
// new findings (most severe first) and the absent ones. Nothing without a
// baseline.
func mdBaseline(w *mdWriter, s *Synthesis) {
	b := s.Baseline
	if b == nil {
		return
	}
	w.f("\n## New since baseline\n\n")
	w.f("Compared with %s", mdCode(b.Path))
	if b.Reviewed != "" {
		w.f(" (reviewed %s)", mdText(b.Reviewed))
	}
	w.f(": %d new, %d unchanged, %d absent.\n", b.New, b.Unchanged, len(b.Absent))
	if b.New > 0 {
		w.f("\n")
	}
	for _, f := range s.Findings {
		if f.Baseline() == nil || f.Baseline().State != BaselineNew {
			continue
		}
		w.f("- %s %s (%s agents)", f.Severity, findingLabel(f), f.ConvergenceDisplay)
		if f.Suppressed() != nil {
			w.f(" · suppressed")
		}
		w.f("\n")
	}
	if len(b.Absent) > 0 {
		w.f("\nAbsent (in the baseline, not reported now):\n\n")
		for _, a := range b.Absent {
			label := "**" + mdText(a.Title) + "**"
			if a.ID != "" {
				label = "**" + mdText(a.ID) + "** " + mdText(a.Title)
			}
			w.f("- %s %s · %s\n", a.Severity, label, mdCode(a.Fingerprint))
		}
	}
}

// mdSuppressions writes the suppressed findings with their reasons, then the
// entries that expired or matched nothing. Nothing without suppressions.
func mdSuppressions(w *mdWriter, s *Synthesis) {
	r := s.Suppressions
	if r == nil {
		return
	}
	w.f("\n## Suppressed Findings\n\n")
	if r.Suppressed == 0 {
		w.f("No finding is suppressed.\n")
	}
	for _, f := range s.Findings {
		if f.Suppressed() == nil {
			continue
		}
		w.f("- %s %s — %s (%s", f.Severity, findingLabel(f), mdText(f.Suppressed().Reason), mdCode(f.Suppressed().By))
		if f.Suppressed().Expires != "" {
			w.f(", until %s", f.Suppressed().Expires)
		}
		w.f(")\n")
	}
	if len(r.Expired) == 0 && len(r.Unused) == 0 {
		return
	}
	w.f("\n### Suppressions to review\n\n")
	for _, n := range r.Expired {
		w.f("- %s expired on %s: %s\n", mdSuppressionNote(n), n.Expires, "it no longer suppresses")
	}
	for _, n := range r.Unused {
		w.f("- %s matched no finding\n", mdSuppressionNote(n))
	}
}

func mdSuppressionNote(n SuppressionNote) string {
	var b strings.Builder
	b.WriteString(mdCode(n.By))
	if n.Fingerprint != "" {
		b.WriteString(" (fingerprint " + mdCode(n.Fingerprint) + ")")
	}
	b.WriteString(" — " + mdText(n.Reason) + " —")
	return b.String()
}
