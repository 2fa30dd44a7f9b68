package testfault

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Controls are agent-written strings that act on a terminal or reorder the
// text around them (SPEC §10): clear the screen (ESC [2J), ring the bell
// (BEL), the C1 CSI (U+009B) starting a colour, a right-to-left override
// (U+202E).
var Controls = []string{"\x1b[2J", "\a", "\u009b31m", "\u202e"}

// ControlText is every one of Controls between two letters: "x␛[2J␇…y" as
// it would act.
var ControlText = "x" + strings.Join(Controls, "") + "y"

// ControlRun writes a run directory at dir (made when missing) whose agent
// text carries ControlText in every field a person is shown: the titles,
// sections, IDs and file refs of a strict report, the headings and fields of
// a prose one, a declared verdict, an error stub's error, a run-uuid
// comment, a file name, the
// fields of bus records (a blocking one, one of an unknown severity, a
// stall, a line that is not JSON), the fields of a specialist's YAML and of
// the design manifest. The blocking bus record is by fd-safety; fd-safety
// reports a P1, fd-prose a P0.
func ControlRun(t testing.TB, dir string) {
	t.Helper()
	a := ControlText
	yaml := strings.NewReplacer("\x1b", `\e`, "\a", `\a`, "\u009b", `\x9b`, "\u202e", `\u202e`).Replace(a)
	files := map[string]string{
		"fd-safety.md": "### Findings Index\n" +
			"- P1 | SA-001 | \"Auth " + a + "\" | Token " + a + " leaks at src/a.go:12\n" +
			"- P2 | SA-" + a + " | \"Storage\" | Cache grows " + a + "\n" +
			"Verdict: needs-changes " + a + "\n",
		"fd-prose.md": "# Review " + a + "\n\n## Findings\n\n### 1. CRITICAL: Secret " + a + " in logs\n\n" +
			"- **Location**: `src/b" + a + ".go:7`\n- Impact: " + a + "\n\nVerdict: risky " + a + "\n",
		"fd-stub.md":      "### Findings Index\nVerdict: error\nAgent failed to produce findings after retry. Error: " + a + "\n",
		"fd-other.md":     "<!-- run-uuid: 0123abcd-" + a + " -->\n### Findings Index\n- P3 | OT-001 | \"S\" | Other\nVerdict: safe\n",
		"fd-" + a + ".md": "### Findings Index\nVerdict: safe\n",
		"peer-findings.jsonl": `{"severity":"blocking","agent":"fd-safety","category":"` + jsonText(a) + `","summary":"Token ` + jsonText(a) +
			`","file_refs":["src/a.go:12` + jsonText(a) + `"],"id":"SCM-` + jsonText(a) + `","timestamp":"2026-11-20T10:00:00Z"}` + "\n" +
			`{"severity":"` + jsonText(a) + `","agent":"fd-prose","summary":"odd ` + jsonText(a) + `"}` + "\n" +
			`{"ts":"2026-11-20T10:01:00+02:00","agent":"fd-prose","kind":"stall","severity":"warn","message":"stuck ` + jsonText(a) + `"}` + "\n" +
			"not json " + a + "\n",
		"findings/frontend.yaml": "specialist_name: frontend\nnotes: \"" + yaml + "\"\napproaches:\n  - number: 1\n" +
			"    variant: null\n    is_variant: false\n    description: \"d " + yaml + "\"\n" +
			"    relevant_files: [\"src/" + yaml + ".ts\"]\n    required_clarifying_questions: [{question: \"q " + yaml + "\"}]\n" +
			"    pending_refinement: \"p " + yaml + "\"\n",
		"design/manifest.yaml": "designs:\n  - screenshot_file_name: \"s" + yaml + ".png\"\n    description: \"d " + yaml + "\"\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonText is s as the inside of a JSON string (s holds no quote or
// backslash): its control characters escaped, the others kept raw, as
// encoding/json writes them.
func jsonText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 {
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&0xf])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RawControl returns the index in b of the first character that acts on a
// terminal or reorders text: a C0 control character other than a line feed
// or a tab, DEL, a C1 control character, a bidirectional embedding,
// override or isolate (U+202A–U+202E, U+2066–U+2069), or a byte that is not
// UTF-8; -1 when there is none. It is the tests' own account of SPEC §10,
// independent of the code under test.
func RawControl(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0x20 && r != '\n' && r != '\t',
			r >= 0x7f && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return i
		}
		i += size
	}
	return -1
}

// ShowRawControl returns what RawControl found in b, quoted with some
// context, for a test's message; "" when it found nothing.
func ShowRawControl(b []byte) string {
	i := RawControl(b)
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("at byte %d: %q", i, b[max(0, i-60):min(len(b), i+20)])
}
