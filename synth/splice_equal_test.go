package synth

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// fullFinding returns a finding with every field and annotation set, each
// list its own: what a merge makes again for a finding it leaves alone.
func fullFinding() Finding {
	by, model := "fd-b", "m-1"
	return Finding{
		ID: "SEC-1", Key: "security:token leak", Fingerprint: "fp1", Severity: parse.P1, Section: "Security",
		Title: "Token leak", Agents: []string{"fd-a", "fd-b"}, Convergence: 2, ConvergenceDisplay: "2/5",
		Confidence: "medium", FileRefs: []string{"a.go:1"}, Independent: 1,
		Sources: []Source{
			{Agent: "fd-a", ID: "SEC-1", Severity: parse.P1, Ref: "fd-a.md:3", Confidence: "high", Section: "Security",
				Title: "Token leak", FileRefs: []string{"a.go:1"}},
			{Agent: "fd-b", ID: "B-2", Severity: parse.P2, Ref: "fd-b.md:9", Confidence: "low", Section: "Auth",
				Title: "Token leaks", FileRefs: []string{"a.go:2"}},
		},
		more: &findingMore{
			severityConflict: map[string]parse.Severity{"fd-a": parse.P1, "fd-b": parse.P2},
			coLocatedWith:    []CoLocation{{Key: "k", ID: "X-1", Ref: "a.go:1"}},
			crossReferences:  []CrossReference{{Ref: "a.go:1", Agents: []string{"fd-a"}}, {Ref: "a.go:2", Agents: []string{"fd-b"}}},
			discoveredBy:     &by,
			primed:           []Priming{{Agent: "fd-b", By: "fd-a", Seq: 3}},
			provenance:       []*AgentProvenance{{Agent: "fd-a", Provenance: Provenance{Model: &model}}},
			evidence:         &FindingEvidence{Claims: []parse.ClaimResult{{Status: "verified"}}},
			baseline:         &FindingBaseline{State: "new"},
			suppressed:       &Suppressed{Reason: "r", By: "b"},
		},
	}
}

// TestEqualFindingRenders holds equalFinding, which lets the splice copy a
// finding a merge made again, to what a finding renders as: a finding
// made again with every field equal is equal (and renders alike), and
// each change of one field that changes what it renders (but its
// convergence_display) makes it unequal.
func TestEqualFindingRenders(t *testing.T) {
	render := func(f *Finding) []byte {
		var enc jsonEncoder
		g := *f
		g.ConvergenceDisplay = ""
		return appendFinding(nil, &g, 2, &enc)
	}
	base := fullFinding()
	if again := fullFinding(); !equalFinding(&again, &base) {
		t.Fatal("a finding made again with the same fields is not equal")
	}
	again := fullFinding()
	again.ConvergenceDisplay = "2/6"
	if !equalFinding(&again, &base) {
		t.Fatal("a finding whose convergence_display alone changed is not equal")
	}
	s := func(p *string) *string { v := *p + "x"; return &v }
	changes := map[string]func(f *Finding){
		"id":                     func(f *Finding) { f.ID += "x" },
		"key":                    func(f *Finding) { f.Key += "x" },
		"fingerprint":            func(f *Finding) { f.Fingerprint += "x" },
		"severity":               func(f *Finding) { f.Severity = parse.P0 },
		"section":                func(f *Finding) { f.Section += "x" },
		"title":                  func(f *Finding) { f.Title += "x" },
		"agents":                 func(f *Finding) { f.Agents[1] = "fd-c" },
		"agents nil":             func(f *Finding) { f.Agents = nil },
		"convergence":            func(f *Finding) { f.Convergence++ },
		"confidence":             func(f *Finding) { f.Confidence = "high" },
		"file refs":              func(f *Finding) { f.FileRefs = append(f.FileRefs, "b.go:2") },
		"file refs empty":        func(f *Finding) { f.FileRefs = []string{} },
		"independent":            func(f *Finding) { f.Independent++ },
		"sources":                func(f *Finding) { f.Sources = f.Sources[:1] },
		"source agent":           func(f *Finding) { f.Sources[1].Agent += "x" },
		"source id":              func(f *Finding) { f.Sources[1].ID += "x" },
		"source severity":        func(f *Finding) { f.Sources[1].Severity = parse.P3 },
		"source ref":             func(f *Finding) { f.Sources[1].Ref += "x" },
		"source confidence":      func(f *Finding) { f.Sources[1].Confidence += "x" },
		"source section":         func(f *Finding) { f.Sources[1].Section += "x" },
		"source title":           func(f *Finding) { f.Sources[1].Title += "x" },
		"source file refs":       func(f *Finding) { f.Sources[1].FileRefs[0] += "x" },
		"severity conflict":      func(f *Finding) { f.more.severityConflict["fd-b"] = parse.P3 },
		"severity conflict nil":  func(f *Finding) { f.more.severityConflict = nil },
		"co-located":             func(f *Finding) { f.more.coLocatedWith[0].ID += "x" },
		"cross reference ref":    func(f *Finding) { f.more.crossReferences[1].Ref += "x" },
		"cross reference agents": func(f *Finding) { f.more.crossReferences[1].Agents[0] += "x" },
		"discovered by":          func(f *Finding) { f.more.discoveredBy = s(f.more.discoveredBy) },
		"discovered by nil":      func(f *Finding) { f.more.discoveredBy = nil },
		"primed":                 func(f *Finding) { f.more.primed[0].Seq++ },
		"provenance":             func(f *Finding) { f.more.provenance[0].Model = s(f.more.provenance[0].Model) },
		"evidence":               func(f *Finding) { f.more.evidence.Claims[0].Status = "moved" },
		"baseline":               func(f *Finding) { f.more.baseline.State = "fixed" },
		"suppressed":             func(f *Finding) { f.more.suppressed.Reason += "x" },
		"no annotations":         func(f *Finding) { f.more = nil },
	}
	for name, change := range changes {
		f := fullFinding()
		change(&f)
		if bytes.Equal(render(&f), render(&base)) {
			t.Errorf("%s: the change does not change what the finding renders as", name)
			continue
		}
		if equalFinding(&f, &base) {
			t.Errorf("%s: a finding that renders otherwise is equal", name)
		}
	}
}

// TestFindingMoreFields fails when findingMore gains or loses a field:
// equalMore must then compare it.
func TestFindingMoreFields(t *testing.T) {
	var got []string
	for f := range reflect.TypeFor[findingMore]().Fields() {
		got = append(got, f.Name)
	}
	want := []string{"severityConflict", "coLocatedWith", "crossReferences", "discoveredBy", "primed", "provenance",
		"evidence", "baseline", "suppressed"}
	if !slices.Equal(got, want) {
		t.Errorf("findingMore's fields are %v, equalMore compares %v: compare the new ones in synth/splice.go", got, want)
	}
}
