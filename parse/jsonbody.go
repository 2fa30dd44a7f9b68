package parse

import (
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Some review tools write their report as JSON, and agents save it as the
// report (a Codex review: {"findings": [{"title", "priority", …}], …}).
// The general reader reads such a body too: each object of an array that
// has a severity field (severity, priority, risk, level, impact) and a
// title field (title, summary, issue, finding, message, description) is a
// finding. A priority written as a number 0–3 is that P-level.

// jsonFindings reads the findings of a JSON body that opens text (after
// white space); ok is false when text does not open with a JSON value
// that decodes. Text after the JSON value (a "Summary:" line) is ignored.
// It reads the value as a stream of tokens, in one pass: a finding's line
// is the line its object opens on.
func jsonFindings(st *stop, text string) ([]gfinding, bool) {
	t := strings.TrimLeft(text, " \t\r\n")
	if t == "" || t[0] != '{' && t[0] != '[' {
		return nil, false
	}
	base := len(text) - len(t)
	type frame struct {
		obj       bool
		expectKey bool
		key       string
		fields    map[string]any
		start     int
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var stack []frame
	var out []gfinding
	line, lineAt := 1, 0 // the line of offset lineAt of text
	lineOf := func(off int) int {
		line += strings.Count(text[lineAt:off], "\n")
		lineAt = off
		return line
	}
	value := func(v any) {
		if n := len(stack); n > 0 && stack[n-1].obj {
			top := &stack[n-1]
			if v != nil && len(top.fields) < 64 {
				top.fields[strings.ToLower(top.key)] = v
			}
			top.expectKey = true
		}
	}
	for {
		st.tick()
		tok, err := dec.Token()
		if err != nil {
			// The end of the value, or bytes that are not JSON: what was
			// read stands if the value was complete.
			return out, len(stack) == 0 && (err == io.EOF || dec.InputOffset() > 0)
		}
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				if len(stack) >= 64 {
					return nil, false
				}
				stack = append(stack, frame{obj: x == '{', expectKey: true, fields: map[string]any{}, start: int(dec.InputOffset()) - 1})
			case '}', ']':
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if f.obj {
					if fd, ok := jsonFinding(f.fields); ok {
						fd.Line = lineOf(base + f.start)
						out = append(out, gfinding{Finding: fd, group: -1})
					}
				}
				value(nil)
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
				stack[n-1].key, stack[n-1].expectKey = x, false
				continue
			}
			value(x)
		default:
			value(x)
		}
		if len(stack) == 0 {
			return out, true // the whole value is read; what follows is not JSON
		}
	}
}

// jsonFinding reads one JSON object as a finding.
func jsonFinding(m map[string]any) (Finding, bool) {
	field := func(names ...string) (string, any) {
		for _, n := range names {
			if v, ok := m[strings.ToLower(n)]; ok {
				return n, v
			}
		}
		return "", nil
	}
	_, sv := field("severity", "priority", "risk", "risk_level", "level", "impact", "sev")
	_, tv := field("title", "summary", "issue", "finding", "name", "message", "description")
	title, _ := tv.(string)
	title = cleanTitle(title)
	if title == "" || sv == nil {
		return Finding{}, false
	}
	var sev Severity
	switch s := sv.(type) {
	case string:
		v, c, ok := severityValue(s, true)
		if !ok || c != sevFinding {
			return Finding{}, false
		}
		sev = v
	case json.Number:
		n, err := strconv.Atoi(s.String())
		if err != nil || n < 0 || n > 3 {
			return Finding{}, false
		}
		sev = pLevel("P" + s.String())
	default:
		return Finding{}, false
	}
	f := Finding{Severity: sev, Title: title, Confidence: ConfidenceLow}
	if _, idv := field("id", "rule_id", "ruleId", "code"); idv != nil {
		if id, ok := idv.(string); ok && IsFindingID(id) {
			f.ID = id
		}
	}
	_, fv := field("file", "path", "filename", "location")
	if file, ok := fv.(string); ok && file != "" && !strings.ContainsAny(file, " \t\n") {
		_, lv := field("line", "line_start", "start_line", "lineStart", "startLine")
		if n, ok := lv.(json.Number); ok {
			f.FileRefs = []string{file + ":" + n.String()}
		}
	}
	_, status := field("status", "state", "resolution")
	if s, ok := status.(string); ok && isResolvedValue(s) {
		f.resolved = true
	}
	return f, true
}

// fencedJSONFindings reads the findings of the fenced ```json and ```yaml
// blocks of a report ("## Findings" over a JSON array a tool printed), by the rules of
// a JSON body. The caller takes them only when the report gives no finding
// otherwise: a JSON block beside findings written in Markdown is an
// example or a restatement.
func fencedJSONFindings(st *stop, lines []line) []gfinding {
	var out []gfinding
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i].text)
		if len(t) < 7 || !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
			continue
		}
		lang := strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "`~")))
		if lang != "json" && lang != "yaml" && lang != "yml" {
			continue
		}
		fence, open := t[:3], lines[i].num
		example := false
		for k := max(0, i-3); k < i; k++ {
			example = example || exampleRe.MatchString(lines[k].text) && !deliveredFormat(lines[k].text)
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j].text), fence); j++ {
			b.WriteString(lines[j].text)
			b.WriteByte('\n')
		}
		if example {
			i = j
			continue
		}
		var fs []gfinding
		if lang == "json" {
			fs, _ = jsonFindings(st, b.String())
		} else {
			fs = yamlFindings(b.String())
		}
		// One object is a finding only under a key that names findings:
		// a lone {"summary", "priority"} is a record of something else.
		if len(fs) < 2 && !findingsKeyRe.MatchString(b.String()) {
			fs = nil
		}
		for _, f := range fs {
			if placeholderTitle(f.Title) {
				continue
			}
			f.Line += open
			out = append(out, f)
		}
		i = j
	}
	return out
}

// exampleRe matches a line that presents a JSON block as an example or a
// format to follow, not as findings.
var exampleRe = regexp.MustCompile(`(?i)\b(?:example|format|schema|template|sample|e\.g\.)`)

// yamlFindings reads the mappings of a YAML block as JSON objects are read
// (a "findings:" list of severity and title): a finding's line is its
// mapping's. Aliases are not followed.
func yamlFindings(text string) (out []gfinding) {
	if len(text) > MaxYAMLSize {
		return nil
	}
	defer func() {
		if recover() != nil {
			out = nil // yaml.v3 recovers its own panics; this is a last defence
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if depth > 64 {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		case yaml.MappingNode:
			m := map[string]any{}
			for k := 0; k+1 < len(n.Content); k += 2 {
				key, v := n.Content[k], n.Content[k+1]
				if v.Kind != yaml.ScalarNode {
					walk(v, depth+1)
					continue
				}
				if v.Tag == "!!int" {
					m[strings.ToLower(key.Value)] = json.Number(v.Value)
				} else {
					m[strings.ToLower(key.Value)] = v.Value
				}
			}
			if f, ok := jsonFinding(m); ok {
				f.Line = n.Line
				out = append(out, gfinding{Finding: f, group: -1})
			}
		}
	}
	walk(&doc, 0)
	return out
}

// findingsKeyRe matches a JSON or YAML key that names a list of findings.
var findingsKeyRe = regexp.MustCompile(`(?i)(?:^|["\s])(?:findings|issues|vulnerabilities|problems|results)"?\s*:`)
