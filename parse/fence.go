package parse

import "strings"

// Tool output pasted into a report (SPEC §2.3): a scanner's printout
// ("npm audit", bandit, a linter) in a fence with no language, or one that
// says it is text or output, is a report body, read by the general reader
// like the lines around it. A fence whose info string names a programming
// language, a data format or markdown holds code or an example and gives
// no finding (JSON and YAML are read by jsonbody.go). Only a printout with
// a severity field line in it is read: a plain fence of a command and its
// log stays masked.

// outputInfo are the info strings of a fence that holds printed text.
var outputInfo = map[string]bool{"": true, "text": true, "txt": true, "plain": true, "plaintext": true,
	"output": true, "console": true, "log": true, "stdout": true}

// toolFence reads the fence that opens at lines[i], the first fenced line
// of a run: it returns the index of its closing line (len(lines) when it
// is never closed), and whether the lines inside it are a tool's printout
// to read.
func toolFence(lines []line, i int) (end int, read bool) {
	end = i + 1
	for ; end < len(lines) && lines[end].fenced; end++ {
		if t := strings.TrimSpace(lines[end].text); fenceOpen(t) != "" && strings.Trim(t, "`~") == "" {
			break
		}
	}
	info := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines[i].text), "`~"))
	info, _, _ = strings.Cut(info, " ")
	if !outputInfo[strings.ToLower(info)] {
		return end, false
	}
	// A fence that the lines before it present as an example, a format
	// or a template ("Example output:") shows what a tool would print.
	for k := max(0, i-3); k < i; k++ {
		if exampleRe.MatchString(lines[k].text) {
			return end, false
		}
	}
	for k := i + 1; k < end; k++ {
		if sevFieldOf(strings.TrimSpace(lines[k].text)) != nil {
			return end, true
		}
	}
	return end, false
}
