package parse

import "testing"

func TestAgentFilter(t *testing.T) {
	tests := []struct {
		name   string
		filter AgentFilter
		agent  string
		want   bool
	}{
		{"agent", AgentFilter{}, "fd-safety", false},
		{"readme", AgentFilter{}, "README", true},
		{"task", AgentFilter{}, "task", true},
		{"prompt glob", AgentFilter{}, "prompt-safety", true},
		{"prompt case", AgentFilter{}, "Prompt", true},
		{"not a prefix of a name", AgentFilter{}, "fd-task", false},
		{"ignore", AgentFilter{Ignore: []string{"draft-*"}}, "draft-a", true},
		{"ignore leaves others", AgentFilter{Ignore: []string{"draft-*"}}, "fd-a", false},
		{"include only", AgentFilter{Include: []string{"fd-*"}}, "audit", true},
		{"include matches", AgentFilter{Include: []string{"fd-*"}}, "fd-a", false},
		{"include beats default", AgentFilter{Include: []string{"task"}}, "task", false},
		{"ignore beats include", AgentFilter{Include: []string{"fd-*"}, Ignore: []string{"fd-old"}}, "fd-old", true},
		{"expect beats default", AgentFilter{Expect: []string{"notes"}}, "notes", false},
		{"expect beats ignore", AgentFilter{Ignore: []string{"fd-*"}, Expect: []string{"fd-a"}}, "fd-a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.Ignores(tt.agent); got != tt.want {
				t.Errorf("%+v.Ignores(%q) = %v, want %v", tt.filter, tt.agent, got, tt.want)
			}
		})
	}
	for _, g := range []string{"", "a/b", "[x"} {
		if ValidGlob(g) == nil {
			t.Errorf("ValidGlob(%q) = nil, want an error", g)
		}
	}
	if err := ValidGlob("fd-*"); err != nil {
		t.Errorf("ValidGlob(fd-*) = %v", err)
	}
}

func TestNamedFile(t *testing.T) {
	tests := []struct {
		base string
		want Name
	}{
		{"fd-a.md", Name{Kind: KindReport, Agent: "fd-a"}},
		{"fd-a.7c1e2f60-4b7d.md.partial", Name{Kind: KindPartial, Agent: "fd-a", Run: "7c1e2f60-4b7d"}},
		{"fd-a.abort", Name{Kind: KindAbort, Agent: "fd-a"}},
		{"gpt-4.1.md", Name{Kind: KindReport, Agent: "gpt-4.1"}},
		{"input.md", Name{Kind: KindReport, Agent: "input"}},
		{"review.txt", Name{Kind: KindReport, Agent: "review"}},
		{"a/b/fd-a.md", Name{Kind: KindReport, Agent: "fd-a"}},
		{"findings.jsonl", Name{Kind: KindBus}},
		{"runs/old-bus.jsonl", Name{Kind: KindBus}},
		{"MANIFEST.yaml", Name{Kind: KindFeature}},
		{"x/MANIFEST.yml", Name{Kind: KindFeature}},
		{"plan/design/manifest.yaml", Name{Kind: KindDesign}},
		{"design/manifest.yaml", Name{Kind: KindDesign}},
		{"manifest.yaml", Name{Kind: KindSpecialist, Agent: "manifest"}},
		{"findings/fd-a.yaml", Name{Kind: KindSpecialist, Agent: "fd-a"}},
		{"notes.yml", Name{Kind: KindSpecialist, Agent: "notes"}},
	}
	for _, tt := range tests {
		if got := NamedFile(tt.base); got != tt.want {
			t.Errorf("NamedFile(%q) = %+v, want %+v", tt.base, got, tt.want)
		}
	}
}
