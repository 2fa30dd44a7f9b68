package synth

import (
	"encoding/json"
	"testing"

	"github.com/fluxwatch/fluxwatch/parse"
)

// SARIF versionControlProvenance lists each (repository, commit) the agents
// declare, once, sorted; a commit without its repository, and a foreign
// agent's, add nothing (never guessed).
func TestSARIFVersionControlProvenance(t *testing.T) {
	str := func(s string) *string { return &s }
	s := &Synthesis{Generator: Generator{Name: "fluxwatch"}, Agents: []AgentResult{
		{Name: "fd-a", Status: parse.StatusValid, Provenance: Provenance{Repository: str("https://example.com/r.git"), Commit: str("bbb")}},
		{Name: "fd-b", Status: parse.StatusValid, Provenance: Provenance{Repository: str("https://example.com/r.git"), Commit: str("aaa")}},
		{Name: "fd-c", Status: parse.StatusValid, Provenance: Provenance{Repository: str("https://example.com/r.git"), Commit: str("aaa")}},
		{Name: "fd-d", Status: parse.StatusValid, Provenance: Provenance{Commit: str("ccc")}},
		{Name: "fd-e", Status: parse.StatusForeign, Provenance: Provenance{Repository: str("https://other"), Commit: str("ddd")}},
	}}
	var log struct {
		Runs []struct {
			VersionControlProvenance []struct {
				RepositoryURI string `json:"repositoryUri"`
				RevisionID    string `json:"revisionId"`
			} `json:"versionControlProvenance"`
		} `json:"runs"`
	}
	sarifOf(t, s, ".", &log)
	got := log.Runs[0].VersionControlProvenance
	if len(got) != 2 || got[0].RevisionID != "aaa" || got[1].RevisionID != "bbb" || got[0].RepositoryURI != "https://example.com/r.git" {
		t.Fatalf("versionControlProvenance = %+v; want r.git at aaa, then bbb", got)
	}

	none, _ := RenderSARIF(&Synthesis{Generator: Generator{Name: "fluxwatch"}, Agents: s.Agents[3:4]}, ".")
	var empty map[string]any
	json.Unmarshal(none, &empty)
	if run := empty["runs"].([]any)[0].(map[string]any); run["versionControlProvenance"] != nil {
		t.Errorf("a commit without its repository made %v", run["versionControlProvenance"])
	}
}
