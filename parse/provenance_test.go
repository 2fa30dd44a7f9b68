package parse

import "testing"

func TestProvenance(t *testing.T) {
	for _, c := range []struct {
		name, front string
		want        Provenance
	}{
		{"none", "verdict: safe\n", Provenance{}},
		{"all keys", "model: sonnet\nprompt_hash: sha256:ab12\ntool_version: claude-code 2.1\ncommit: 0123abc\n" +
			"started: 2026-11-20T10:00:00Z\nfinished: 2026-11-20T10:30:00Z\nrun_id: r-1\ntokens: 15,234\n",
			Provenance{Model: "sonnet", PromptHash: "sha256:ab12", ToolVersion: "claude-code 2.1", Commit: "0123abc",
				Started: "2026-11-20T10:00:00Z", Finished: "2026-11-20T10:30:00Z", RunID: "r-1", Tokens: 15234}},
		{"aliases", "prompt_sha256: ff\ngit_commit: beef\nstart_time: a\nend_time: b\ntotal_tokens: 900\n",
			Provenance{PromptHash: "ff", Commit: "beef", Started: "a", Finished: "b", Tokens: 900}},
		{"usage total", "usage:\n  total_tokens: 4200\n", Provenance{Tokens: 4200}},
		{"usage in+out", "usage:\n  input_tokens: 1000\n  output_tokens: 200\n", Provenance{Tokens: 1200}},
		{"usage half", "usage:\n  input_tokens: 1000\n", Provenance{}},
		{"not a number", "tokens: many\nmodel: ''\n", Provenance{}},
		{"negative", "tokens: -5\n", Provenance{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ReadReport([]byte("---\n" + c.front + "---\n# Review\n\n### Findings Index\n- P2 | X-1 | \"A\" | Thing\n\nVerdict: safe\n"))
			if r.Provenance != c.want {
				t.Errorf("provenance = %+v, want %+v", r.Provenance, c.want)
			}
		})
	}
}
