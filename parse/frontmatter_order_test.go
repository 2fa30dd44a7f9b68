package parse

import (
	"strings"
	"testing"
)

// TestFrontMatterBeforeIndex: SPEC §2.5's valid report may open with a
// run-uuid comment, then YAML front matter (which fluxwatch protocol asks
// for), then the index: either or both, and it is still valid, its front
// matter read (finished: included).
func TestFrontMatterBeforeIndex(t *testing.T) {
	const fm = "---\nmodel: claude-sonnet-4\nfinished: 2026-11-20T10:42:00Z\n---\n"
	const index = "### Findings Index\n- P1 | AR-001 | \"Auth\" | Tokens in localStorage\nVerdict: needs-changes\n<!-- flux-drive:complete -->\n"
	const uuid = "<!-- run-uuid: 7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13 -->\n"
	for _, tt := range []struct {
		name, text, finished, run string
	}{
		{"index alone", index, "", ""},
		{"front matter", fm + index, "2026-11-20T10:42:00Z", ""},
		{"run-uuid comment, front matter", uuid + fm + index, "2026-11-20T10:42:00Z", "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13"},
		{"run-uuid comment", uuid + index, "", "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ReadReport([]byte(tt.text))
			if r.Status != StatusValid || r.Provenance.Finished != tt.finished || r.RunUUID != tt.run {
				t.Errorf("status %s, finished %q, run %q; want valid, %q, %q", r.Status, r.Provenance.Finished, r.RunUUID, tt.finished, tt.run)
			}
			for _, d := range r.Diagnostics {
				if d.Level != LevelInfo || strings.Contains(d.Message, "first block") {
					t.Errorf("diagnostic %s", d)
				}
			}
			if len(r.Findings) != 1 || r.Findings[0].Line != strings.Count(tt.text[:strings.Index(tt.text, "- P1")], "\n")+1 {
				t.Errorf("findings %+v", r.Findings)
			}
		})
	}
}
