package parse

import "strings"

// plainFenceLangs are the info strings of a fence that holds a tool's
// printed output rather than code: none, or a name for plain text or a
// terminal session.
var plainFenceLangs = map[string]bool{
	"": true, "text": true, "txt": true, "plaintext": true, "plain": true, "console": true, "output": true,
	"log": true, "terminal": true, "shell-session": true, "none": true,
}

// toolOutputLines returns lines with the body of each plain fence that
// holds a severity field unmasked, and whether there was one: `npm audit`
// or a scanner's report pasted as a fence is the report's body (SPEC
// §2.3), read when the text outside the fences gives no finding. A fence
// with a programming language stays code, and so does one that an
// "Example:" or "Template" line in the three lines above introduces. Once
// unmasked, a body is not returned again: reading the lines returned
// gives false.
func toolOutputLines(lines []line) ([]line, bool) {
	var out []line
	for i := 0; i < len(lines); i++ {
		f := fenceOpen(lines[i].text)
		if f == "" || !lines[i].fenced {
			continue
		}
		lang := strings.ToLower(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines[i].text), f[:1])))
		j := i + 1
		sev := false
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j].text)
			if strings.HasPrefix(t, f) && strings.Trim(t, f[:1]) == "" {
				break
			}
			sev = sev || sevFieldOf(t) != nil
		}
		example := false
		for k := max(0, i-3); k < i; k++ {
			example = example || exampleRe.MatchString(lines[k].text)
		}
		// A body read as text already (masked no more) is not read again.
		if sev && plainFenceLangs[lang] && !example && j < len(lines) && j > i+1 && lines[i+1].masked {
			if out == nil {
				out = slicesClone(lines)
			}
			for k := i + 1; k < j; k++ {
				l := &out[k]
				l.masked, l.fenced = false, false
				l.level, l.head = heading(l.text)
			}
		}
		i = j
	}
	return out, out != nil
}

func slicesClone(lines []line) []line { return append([]line(nil), lines...) }
