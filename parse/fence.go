package parse

import "strings"

// Text in a fenced code block is quoted material: code, a tool's printout,
// an example. The author labels findings in the report's own lines; what a
// fence holds is evidence for them, or a sample, and a level in it (a
// log's "CRITICAL:", a linter's "error", a scanner's "Severity: High")
// was written by a tool, not by the author (SPEC §2.3). So fenced text
// gives no finding, no orphan and no tally, unless the report outside its
// fences gives no finding at all: then, as an index in a fence is read
// when nothing else is found (SPEC §2.2), a scanner's printout ("npm
// audit", bandit, a linter) is the report's body, read by the general
// reader like the lines around it (readFenced). Only a fence with no
// language, or one that says it is text or output, with a severity field
// line in it, not presented as an example, is such a printout; a fence
// whose info string names a programming language, a data format or
// markdown holds code or an example (JSON and YAML are read by
// jsonbody.go), and a plain fence of a command and its log stays masked.

// readFenced reads lines by the general reader (readGeneral) with their
// fences masked, and again with the tool printouts among them read when
// that gives no finding and a fence holds one. The first read skips the
// fenced lines: a report made of printouts costs little more than one
// read, and one with findings outside its fences exactly one.
func readFenced(st *stop, src string, lines []line) general {
	g := readGeneral(st, src, lines, false)
	if len(g.findings) > 0 || !anyToolFence(lines) {
		return g
	}
	return readGeneral(st, src, lines, true)
}

// anyToolFence reports whether a fence of lines holds a tool's printout
// to read (toolFence).
func anyToolFence(lines []line) bool {
	for i := 0; i < len(lines); i++ {
		if lines[i].fenced && (i == 0 || !lines[i-1].fenced) {
			end, read := toolFence(lines, i)
			if read {
				return true
			}
			i = max(i, end-1)
		}
	}
	return false
}

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
